import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

const PRUNE_EVERY_MS = 60_000;

/** Removes records past IDEMPOTENCY_RETENTION_HOURS, in small batches, on every instance. */
@Injectable()
export class IdempotencyPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPruner.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly idempotency: IdempotencyService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.prune()
        .catch((err: unknown) => {
          this.logger.warn(`Pruning idempotency keys failed: ${(err as Error).message}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, PRUNE_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  prune(): Promise<number> {
    return this.records.prune(this.idempotency.keptSince());
  }
}
