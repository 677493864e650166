import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config.js';
import { docsAssetsOnly } from './docs-assets.js';
import { buildOpenApiDocument } from './openapi.document.js';

export const DOCS_PATH = 'docs';
export const OPENAPI_JSON_PATH = 'v1/openapi.json';

// Plain Express routes added before app.init(), so they precede Nest's: the /v1 catch-all cannot
// shadow the document, and neither needs a key nor counts against a rate limit.
export function setupOpenApi(app: NestExpressApplication, config: AppConfig): OpenAPIObject {
  // Built now rather than on the first request, so an undocumented operation fails the start.
  const document = buildOpenApiDocument(app, config);
  app.use(`/${DOCS_PATH}`, docsAssetsOnly);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Pet Store Inventory API',
    swaggerOptions: {
      persistAuthorization: true,
      deepLinking: true,
      displayOperationId: true,
      showExtensions: true,
      displayRequestDuration: true,
      tryItOutEnabled: false,
      defaultModelsExpandDepth: 1,
    },
  });
  return document;
}
