import type { InventoryRow } from '../inventory-row.js';
import type { SqliteDatabase, SqliteStatement } from '../sqlite-handle.js';
import { changeParams } from '../history/change-record.js';
import { decide, type StockWrite, type WriteOutcome } from './stock-write.js';

class BatchAborted extends Error {
  constructor(readonly failure: unknown) {
    super('batch aborted');
  }
}

interface Pending {
  write: StockWrite;
  changedAt: string;
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

export interface SqliteWriterStatements {
  /** `:petId` -> InventoryRow */
  current: SqliteStatement;
  /** `:petId, :quantity, :status` */
  update: SqliteStatement;
  /** The write counter, plucked. */
  counter: SqliteStatement;
  /** INSERT_CHANGE_SQL */
  record: SqliteStatement;
}

/**
 * Stock updates on SQLite, committed together: the updates requested during one turn of the
 * event loop run in one transaction at the end of that turn (group commit). A commit costs
 * more than the statements it carries (WAL frames, file locks), and a request is answered only
 * once the commit holding its update returned. The transaction holds the write lock from its
 * first statement, so each update reads the row it replaces and the counter its change
 * produced, whoever else writes to the file; its InventoryChange commits with it.
 */
export class SqliteStockWriter {
  private readonly begin: SqliteStatement;
  private readonly commit: SqliteStatement;
  private readonly rollback: SqliteStatement;
  private queued: Pending[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly statements: SqliteWriterStatements,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  write(write: StockWrite): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      const pending = { write, changedAt: new Date().toISOString(), resolve, reject };
      if (this.queued.push(pending) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    // Inside a transaction of this process (an import) the counter is not final until it
    // commits, and the updates commit or roll back with it.
    if (this.db.inTransaction) {
      for (const pending of batch) {
        try {
          const outcome = this.apply(pending);
          pending.resolve(
            outcome.kind === 'written' ? { ...outcome, version: undefined } : outcome,
          );
        } catch (err) {
          pending.reject(err);
        }
      }
      return;
    }
    let outcomes: (WriteOutcome | { kind: 'failed'; failed: unknown })[];
    try {
      this.begin.run();
      outcomes = batch.map((pending) => {
        try {
          return this.apply(pending);
        } catch (failed) {
          // An I/O error can end the transaction: then nothing of the batch is kept.
          if (!this.db.inTransaction || failed instanceof BatchAborted) throw failed;
          // Otherwise SQLite undid this statement only; the others still commit.
          return { kind: 'failed' as const, failed };
        }
      });
      this.commit.run();
    } catch (err) {
      // An I/O error may already have rolled the transaction back; either way nothing of it stays.
      if (this.db.inTransaction) this.rollback.run();
      const cause = err instanceof BatchAborted ? err.failure : err;
      for (const pending of batch) pending.reject(cause);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome.kind === 'failed') pending.reject(outcome.failed);
      else pending.resolve(outcome);
    });
  }

  private apply({ write, changedAt }: Pending): WriteOutcome {
    const { current, update, counter, record } = this.statements;
    const before = current.get({ petId: write.petId }) as InventoryRow | undefined;
    if (!before) return { kind: 'not_found' };
    const decision = decide(before, write);
    if (decision.kind === 'precondition_failed')
      return { kind: 'precondition_failed', row: before };
    if (decision.kind === 'unchanged') return { kind: 'written', row: decision.row };
    const { row } = decision;
    update.run({ petId: write.petId, quantity: row.quantity, status: row.status });
    const version = BigInt(counter.get() as number);
    try {
      record.run(
        changeParams(
          version,
          before,
          row,
          { ...write.caller, reason: write.reason, reference: write.reference, source: 'api' },
          changedAt,
        ),
      );
    } catch (err) {
      // The update is already in the transaction: it must not commit without its record.
      throw new BatchAborted(err);
    }
    return { kind: 'written', row, version };
  }
}
