import { Injectable } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppConfig } from '../../config/app-config.js';
import { PeriodicPruner } from '../../database/periodic-pruner.js';
import { InventoryHistoryRepository } from './inventory-history.repository.js';

export const PRUNE_BATCH = 1000;
const DAY_MS = 86_400_000;

/** Removes changes past CHANGES_RETENTION_DAYS, a batch per turn of the event loop. */
@Injectable()
export class ChangesPruner extends PeriodicPruner {
  protected readonly subject = 'the stock history';

  constructor(
    private readonly history: InventoryHistoryRepository,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.inventory.changesRetentionDays * DAY_MS);
    let removed = 0;
    for (;;) {
      const count = await this.history.pruneBatch(cutoff, PRUNE_BATCH);
      removed += count;
      if (count < PRUNE_BATCH) return removed;
      await yieldToEventLoop();
    }
  }
}
