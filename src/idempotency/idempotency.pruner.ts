import { Injectable } from '@nestjs/common';
import { PeriodicPruner } from '../database/periodic-pruner.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/** Removes records past IDEMPOTENCY_RETENTION_HOURS, in small batches. */
@Injectable()
export class IdempotencyPruner extends PeriodicPruner {
  protected readonly subject = 'idempotency keys';

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly idempotency: IdempotencyService,
  ) {
    super();
  }

  prune(): Promise<number> {
    return this.records.prune(this.idempotency.keptSince());
  }
}
