import 'reflect-metadata';
import { BadRequestException, Body, Controller, Get, Module, NotFoundException, Param, Patch } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type CatalogItem, listenOptions, loadCatalog } from './catalog.js';

/*
 * The framework floor: what NestJS 12 on Express costs with nothing of ours in the way. The
 * same array from memory, no auth, no limiter, no database, no logging; the stock
 * framework defaults (its JSON body parser, Express's weak ETag, res.json).
 */
const items = loadCatalog();
const byId = new Map<string, CatalogItem>(items.map((item) => [String(item.petId), item]));

@Controller('v1/inventory')
class FloorController {
  @Get()
  listInventory(): CatalogItem[] {
    return items;
  }

  @Patch(':petId')
  updateInventory(@Param('petId') petId: string, @Body() body: { quantity?: unknown } | undefined): CatalogItem {
    const item = byId.get(petId);
    if (!item) throw new NotFoundException();
    const quantity = body?.quantity;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > 2_147_483_647) {
      throw new BadRequestException();
    }
    item.quantity = quantity;
    item.status = quantity === 0 ? 'sold' : item.status === 'sold' ? 'available' : item.status;
    return item;
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
const { port, host } = listenOptions();
await app.listen(port, host);
