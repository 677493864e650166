import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppConfig } from '../../config/app-config.js';
import { InventoryHistoryRepository } from './inventory-history.repository.js';

const PRUNE_EVERY_MS = 60_000;
export const PRUNE_BATCH = 1000;
const DAY_MS = 86_400_000;

@Injectable()
export class ChangesPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChangesPruner.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly history: InventoryHistoryRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.prune()
        .catch((err: unknown) => {
          this.logger.warn(`Pruning the stock history failed: ${(err as Error).message}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, PRUNE_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
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
