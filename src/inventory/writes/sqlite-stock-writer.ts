import type { InventoryRow } from '../inventory-row.js';
import type { SqliteDatabase, SqliteStatement } from '../sqlite-handle.js';
import { decide, type StockWrite, type WriteOutcome } from './stock-write.js';

const CURRENT_SQL = `SELECT CAST(id AS TEXT) AS "petId", quantity, status FROM pets WHERE id = ?`;
const UPDATE_SQL = `UPDATE pets SET quantity = ?, status = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?`;
// The change takes its id from the counter the update just bumped; without the counter's row it
// inserts nothing, and the batch is refused.
const RECORD_SQL = `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status, status,
    reason, reference, source, key_id, request_id, changed_at)
  SELECT version, ?, ?, ?, ?, ?, ?, ?, 'api', ?, ?, ? FROM inventory_version WHERE id = 1
  RETURNING id`;

class BatchAborted extends Error {
  constructor(readonly failure: unknown) {
    super('batch aborted');
  }
}

interface Pending {
  write: StockWrite;
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit on SQLite: the updates of one turn of the event loop commit in one transaction, and
 * each is answered once that commit returned. The transaction holds the write lock from its first
 * statement, so each update reads the row it replaces whoever else writes to the file.
 */
export class SqliteStockWriter {
  private readonly begin: SqliteStatement;
  private readonly commit: SqliteStatement;
  private readonly rollback: SqliteStatement;
  private readonly current: SqliteStatement;
  private readonly update: SqliteStatement;
  private readonly record: SqliteStatement;
  private queued: Pending[] = [];
  private changedAt = '';

  constructor(private readonly db: SqliteDatabase) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.current = db.prepare(CURRENT_SQL);
    this.update = db.prepare(UPDATE_SQL);
    this.record = db.prepare(RECORD_SQL).pluck();
  }

  write(write: StockWrite): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      if (this.queued.push({ write, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    this.changedAt = new Date().toISOString();
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

  private apply({ write }: Pending): WriteOutcome {
    const before = this.current.get(write.petId) as InventoryRow | undefined;
    if (!before) return { kind: 'not_found' };
    const decision = decide(before, write);
    if (decision.kind === 'precondition_failed')
      return { kind: 'precondition_failed', row: before };
    if (decision.kind === 'unchanged') return { kind: 'written', row: decision.row };
    const { row } = decision;
    this.update.run(row.quantity, row.status, write.petId);
    let id: number | undefined;
    try {
      id = this.record.get(
        write.petId,
        before.quantity,
        row.quantity,
        before.status,
        row.status,
        write.reason,
        write.reference,
        write.caller.keyId,
        write.caller.requestId,
        this.changedAt,
      ) as number | undefined;
    } catch (err) {
      // The update is already in the transaction: it must not commit without its record.
      throw new BatchAborted(err);
    }
    if (id === undefined) throw new BatchAborted(new Error('The write counter has no row'));
    return { kind: 'written', row, version: BigInt(id) };
  }
}
