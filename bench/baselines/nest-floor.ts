import 'reflect-metadata';
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  Module,
  NotFoundException,
  Param,
  Patch,
} from '@nestjs/common';
import { AbstractHttpAdapter, NestFactory } from '@nestjs/core';
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
  updateInventory(
    @Param('petId') petId: string,
    @Body() body: { quantity?: unknown } | undefined,
  ): CatalogItem {
    const item = byId.get(petId);
    if (!item) throw new NotFoundException();
    const quantity = body?.quantity;
    if (
      typeof quantity !== 'number' ||
      !Number.isInteger(quantity) ||
      quantity < 0 ||
      quantity > 2_147_483_647
    ) {
      throw new BadRequestException();
    }
    item.quantity = quantity;
    item.available = quantity;
    item.status = quantity === 0 ? 'sold' : item.status === 'sold' ? 'available' : item.status;
    return item;
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

/**
 * BENCH_FLOOR_ADAPTER=api: the same floor on the service's HTTP adapter (its response class
 * and request admission), to show what the adapter alone costs. Loaded from the service's build.
 */
async function adapter(): Promise<AbstractHttpAdapter | undefined> {
  if (process.env.BENCH_FLOOR_ADAPTER !== 'api') return undefined;
  const built = (await import(new URL('../../platform/http/index.js', import.meta.url).href)) as {
    ApiExpressAdapter: new (timeouts: {
      headersMs: number;
      requestMs: number;
      keepAliveMs: number;
    }) => AbstractHttpAdapter;
  };
  // The service's default timeouts.
  return new built.ApiExpressAdapter({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
}

const httpAdapter = await adapter();
const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
const app = httpAdapter
  ? await NestFactory.create<NestExpressApplication>(FloorModule, httpAdapter, options)
  : await NestFactory.create<NestExpressApplication>(FloorModule, options);
app.enableShutdownHooks();
const { port, host } = listenOptions();
await app.listen(port, host);
