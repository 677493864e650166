import type { StockWrite, WriteOutcome } from './stock-write.js';

export const MAX_BATCH = 256;
// Several batches at once: a batch waiting on a row held by an import holds back only its own.
export const MAX_IN_FLIGHT = 4;

interface Queued {
  write: StockWrite;
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit on PostgreSQL: every writer holds the write counter's row until it commits, so
 * commits cannot overlap. One statement and one commit per batch; a failed batch keeps nothing.
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
