import { Module } from '@nestjs/common';
import { IdempotencyPruner } from './idempotency.pruner.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

@Module({
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyPruner],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
