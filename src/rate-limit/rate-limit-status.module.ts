import { Module } from '@nestjs/common';
import { RateLimitController } from './rate-limit.controller.js';
import { RateLimitStatusService } from './rate-limit-status.service.js';

@Module({ controllers: [RateLimitController], providers: [RateLimitStatusService] })
export class RateLimitStatusModule {}
