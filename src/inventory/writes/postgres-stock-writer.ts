import type { StockWrite, WriteOutcome } from './stock-write.js';

/** Updates committed together at most; more wait for the next batch. */
export const MAX_BATCH = 256;
/**
 * Batches under way at once: a batch waiting on one pet's row (held by an import, or by a
 * transaction outside the service) holds back its own updates, not every later one.
 */
export const MAX_IN_FLIGHT = 4;

interface Queued {
  write: StockWrite;
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit on PostgreSQL. Every writer holds the write counter's row until it commits
 * (docs/api-changes.md), so commits cannot overlap and each waits for the one before it to be
 * flushed to the WAL. The updates requested in one turn of the event loop, and those requested
 * while MAX_IN_FLIGHT batches run, are sent together, one statement and one commit
 * (`inventory_write_many`), each still its own call of
 * `inventory_write` with its own version. A request is answered once the commit holding its
 * update returned; a batch that fails refuses all of its updates, and none is kept.
 */
export class PostgresStockWriter {
  private pending: Queued[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly run: (writes: StockWrite[]) => Promise<WriteOutcome[]>) {}

  write(write: StockWrite): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      this.schedule();
    });
  }

  /** At the end of this turn of the event loop, so that the updates of the turn go together. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight >= MAX_IN_FLIGHT || this.pending.length === 0) return;
    this.inFlight++;
    const batch = this.pending.splice(0, MAX_BATCH);
    try {
      const outcomes = await this.run(batch.map((queued) => queued.write));
      batch.forEach((queued, i) => queued.resolve(outcomes[i]));
    } catch (err) {
      for (const queued of batch) queued.reject(err);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}
