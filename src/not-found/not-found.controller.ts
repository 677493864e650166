import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { AnyScope } from '../auth/scope.guard.js';
import { ApiError } from '../common/errors/api-error.js';

// Catches unmatched /v1 paths so the guards run as for a real operation: the limiter counts it and
// sets its headers before the 404. Registered last (AppModule).
@ApiExcludeController()
@AnyScope()
@Controller()
export class NotFoundController {
  @All('{*path}')
  notFound(@Req() req: Request): never {
    throw new ApiError('not_found', `No route for ${req.method} ${req.path}`);
  }
}
