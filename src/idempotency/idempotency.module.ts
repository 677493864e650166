import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { IdempotencyPruner } from './idempotency.pruner.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity])],
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyPruner],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
