import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';

const PRUNE_EVERY_MS = 60_000;

/**
 * Removes what a retention setting no longer keeps, once a minute on every instance (the
 * scheduler runs only in the server: the CLI does not import ScheduleModule). A run that is still
 * going when the next is due is not doubled, and shutdown waits for it.
 */
export abstract class PeriodicPruner implements OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private running: Promise<number> | undefined;

  /** What is pruned, for the warning when a run fails. */
  protected abstract readonly subject: string;

  abstract prune(): Promise<number>;

  @Interval(PRUNE_EVERY_MS)
  protected pruneInBackground(): void {
    this.running ??= this.prune()
      .catch((err: unknown) => {
        this.logger.warn(`Pruning ${this.subject} failed: ${(err as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running;
  }
}
