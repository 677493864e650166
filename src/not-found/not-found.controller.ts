import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { AnyScope } from '../auth/scope.guard.js';
import { ApiError } from '../common/errors/api-error.js';

/**
 * Catches every unmatched /v1 path so it passes through the guards like a real operation:
 * the limiter counts it and sets its headers before the 404. Registered last (AppModule). A
 * route that does not exist is a 404 for every key, read keys included.
 */
@ApiExcludeController()
@AnyScope()
@Controller()
export class NotFoundController {
  @All('{*path}')
  notFound(@Req() req: Request): never {
    throw new ApiError('not_found', `No route for ${req.method} ${req.path}`);
  }
}
