import 'reflect-metadata';
import { Controller, Get, Module, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import { listenOptions, loadCatalog } from './catalog.js';

/*
 * What the framework costs when a handler does nothing per request: NestJS 12 on Express
 * sending the listing's bytes serialised once at start, with their ETag computed once, and
 * nothing else (no auth, limiter, database, logging, metrics or security headers). Between
 * it and the service lies everything the service does per request; between it and the floor,
 * what the floor spends on serialising and hashing its answer.
 */
const body = Buffer.from(JSON.stringify(loadCatalog()));
const etag = '"cached"';

@Controller('v1/inventory')
class CachedController {
  @Get()
  listInventory(@Res() res: Response): void {
    res.setHeader('ETag', etag);
    res.type('application/json; charset=utf-8').send(body);
  }
}

@Module({ controllers: [CachedController] })
class CachedModule {}

const app = await NestFactory.create<NestExpressApplication>(CachedModule, {
  logger: ['error', 'warn'],
  bodyParser: false,
});
app.disable('x-powered-by');
app.enableShutdownHooks();
const { port, host } = listenOptions();
await app.listen(port, host);
