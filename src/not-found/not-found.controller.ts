import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { Anonymous } from '../auth/public.decorator.js';
import { AnyScope } from '../auth/api-key.guard.js';
import { ApiError } from '../common/errors/api-error.js';
import { IgnoresBody } from '../platform/http/index.js';

function noRoute(req: Request): never {
  throw new ApiError('not_found', `No route for ${req.method} ${req.path}`);
}

// Catches unmatched /v1 paths so the guards run as for a real operation: the limiter counts it and
// sets its headers before the 404. Registered last (AppModule).
@ApiExcludeController()
@IgnoresBody()
@AnyScope()
@Controller()
export class NotFoundController {
  @All('{*path}')
  notFound(@Req() req: Request): never {
    noRoute(req);
  }
}

// Unmatched paths outside /v1 (the docs, the API description and health are served before):
// counted against the client IP's anonymous windows, whatever key they carry (contract). The
// method's name is the operation metrics report: `unmatched`, as for any path without a route.
@ApiExcludeController()
@IgnoresBody()
@Anonymous()
@Controller()
export class OutsideApiNotFoundController {
  @All('{*path}')
  unmatched(@Req() req: Request): never {
    noRoute(req);
  }
}
