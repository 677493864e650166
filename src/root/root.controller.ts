import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { packageManifest } from '../runtime/runtime.js';

export interface ServiceIndex {
  name: string;
  version: string;
  links: { docs: string; openapi: string; health: string };
}

/**
 * `GET /`: what a browser or a first curl finds at the root. Public and not rate limited, like
 * /health; outside /v1, so not an operation of the OpenAPI document (docs/operations.md).
 */
@ApiExcludeController()
@Public()
@Controller()
export class RootController {
  private readonly body: ServiceIndex = {
    name: packageManifest().name,
    version: packageManifest().version,
    links: { docs: '/docs', openapi: '/v1/openapi.json', health: '/health' },
  };

  @Get()
  index(): ServiceIndex {
    return this.body;
  }
}
