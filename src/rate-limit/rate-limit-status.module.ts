import { Module } from '@nestjs/common';
import { RateLimitController } from './rate-limit.controller.js';
import { RateLimitStatusService } from './rate-limit-status.service.js';

/** `GET /v1/rate_limit`; the storage comes from the global RateLimitModule. */
@Module({ controllers: [RateLimitController], providers: [RateLimitStatusService] })
export class RateLimitStatusModule {}
