import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error.js';

/**
 * Catches every unmatched /v1 path so it passes through the guards like a real operation:
 * the limiter counts it and sets its headers before the 404. Registered last (AppModule).
 */
@ApiExcludeController()
@Controller()
export class NotFoundController {
  @All('{*path}')
  notFound(@Req() req: Request): never {
    throw new ApiError('not_found', `No route for ${req.method} ${req.path}`);
  }
}
