import type { InventoryRow, QuantityUpdate } from './inventory.repository.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-handle.js';

interface Pending {
  params: { petId: bigint; quantity: number };
  resolve(update: QuantityUpdate): void;
  reject(err: unknown): void;
}

/**
 * Quantity updates on SQLite, committed together: the updates requested during one turn of the
 * event loop run, each as its own UPDATE statement, in one transaction at the end of that turn
 * (group commit). A commit costs more than the statements it carries (WAL frames, file locks),
 * and a request is answered only once the commit holding its update returned. The transaction
 * holds the write lock from its first statement, so the write counter read after each update
 * is the version that update produced, whoever else writes to the file.
 */
export class SqliteQuantityWriter {
  private readonly begin: SqliteStatement;
  private readonly commit: SqliteStatement;
  private readonly rollback: SqliteStatement;
  private queued: Pending[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly update: SqliteStatement,
    private readonly counter: SqliteStatement,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  setQuantity(petId: bigint, quantity: number): Promise<QuantityUpdate> {
    return new Promise((resolve, reject) => {
      if (this.queued.push({ params: { petId, quantity }, resolve, reject }) === 1)
        setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    // Inside a transaction of this process (an import) the counter is not final until it
    // commits, and the updates commit or roll back with it.
    if (this.db.inTransaction) {
      for (const pending of batch) this.settle(pending, () => ({ row: this.row(pending) }));
      return;
    }
    let outcomes: (QuantityUpdate | { failed: unknown })[];
    try {
      this.begin.run();
      outcomes = batch.map((pending) => {
        try {
          const row = this.row(pending);
          return { row, version: row ? BigInt(this.counter.get() as number) : undefined };
        } catch (failed) {
          // An I/O error can end the transaction: then nothing of the batch is kept.
          if (!this.db.inTransaction) throw failed;
          // Otherwise SQLite undid this statement only; the others still commit.
          return { failed };
        }
      });
      this.commit.run();
    } catch (err) {
      // An I/O error may already have rolled the transaction back; either way nothing of it stays.
      if (this.db.inTransaction) this.rollback.run();
      for (const pending of batch) pending.reject(err);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if ('failed' in outcome) pending.reject(outcome.failed);
      else pending.resolve(outcome);
    });
  }

  private row(pending: Pending): InventoryRow | undefined {
    return this.update.get(pending.params) as InventoryRow | undefined;
  }

  private settle(pending: Pending, work: () => QuantityUpdate): void {
    try {
      pending.resolve(work());
    } catch (err) {
      pending.reject(err);
    }
  }
}
