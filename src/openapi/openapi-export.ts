import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../app.module.js';
import { ApiExpressAdapter } from '../platform/http/index.js';
import { loadConfig } from '../config/app-config.js';
import { APP_OPTIONS, configureApp } from '../configure-app.js';
import { buildOpenApiDocument } from './openapi.document.js';

// From a fixed configuration, not the environment, so every machine derives the same document
// (the client's generated types are checked against it).
export async function exportOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(config),
      new ApiExpressAdapter(config.http.timeouts),
      { ...APP_OPTIONS, logger: false },
    ),
    config,
  );
  try {
    return JSON.parse(JSON.stringify(buildOpenApiDocument(app, config))) as OpenAPIObject;
  } finally {
    await app.close();
  }
}
