import { Injectable, Optional } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppConfig } from '../config/app-config.js';
import { PeriodicPruner } from '../database/periodic-pruner.js';
import { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { HoldsRepository, PRUNE_BATCH } from './holds.repository.js';

const DAY_MS = 86_400_000;

/** Counts the holds that expired, then removes those ended past HOLDS_RETENTION_DAYS. */
@Injectable()
export class HoldsPruner extends PeriodicPruner {
  protected readonly subject = 'holds';

  constructor(
    private readonly holds: HoldsRepository,
    private readonly inventory: InventoryRepository,
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    super();
  }

  async prune(): Promise<number> {
    const now = this.inventory.clock.now();
    const expired = await this.holds.markExpired(now);
    if (expired > 0) this.metrics?.holdEnded('expired', expired);
    const cutoff = now - this.config.holds.retentionDays * DAY_MS;
    let removed = 0;
    for (;;) {
      const count = await this.holds.pruneBatch(cutoff);
      removed += count;
      if (count < PRUNE_BATCH) return removed;
      await yieldToEventLoop();
    }
  }
}
