import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isConnectionLost, isDatabaseUnavailable } from '../../database/database-errors.js';
import { MAX_QUANTITY } from '../dto/inventory-update.dto.js';
import { type InventoryRow, sameStock } from '../inventory-row.js';
import { nextStatus } from '../pet-status.js';
import { InventoryRepository, type StockChange } from './inventory.repository.js';
import { ifMatchAllows } from './preconditions.js';
import type {
  GroupWork,
  InTransaction,
  LineRefusal,
  StockLine,
  StockLinesOutcome,
  StockLinesWriter,
} from './stock-lines.js';
import { StockCommitted } from './stock-committed.js';
import type { Caller } from './stock-write.js';

/** The lines of one call, decided against the rows as the calls before it left them. */
export function decideLines(
  rows: Map<string, InventoryRow>,
  lines: readonly StockLine[],
  caller: Caller,
): { outcome: StockLinesOutcome; changes: StockChange[] } {
  const state = new Map<string, InventoryRow>();
  const current = (petId: string) => state.get(petId) ?? rows.get(petId);
  const refusals: LineRefusal[] = [];
  const applied: InventoryRow[] = [];
  const changes: StockChange[] = [];
  lines.forEach((line, index) => {
    const petId = line.petId.toString();
    const before = current(petId);
    if (!before) return void refusals.push({ index, code: 'not_found' });
    const refuse = (code: LineRefusal['code']) =>
      void refusals.push({ index, code, current: before });
    if (!ifMatchAllows(line.ifMatch, before)) return refuse('precondition_failed');
    if (line.expectedQuantity !== undefined && line.expectedQuantity !== before.quantity)
      return refuse('quantity_mismatch');
    const quantity = line.quantity ?? before.quantity + (line.delta ?? 0);
    if (quantity < 0) return refuse('insufficient_stock');
    if (quantity > MAX_QUANTITY) return refuse('quantity_out_of_range');
    const after: InventoryRow = { petId, quantity, status: nextStatus(before.status, quantity) };
    state.set(petId, after);
    applied.push(after);
    if (sameStock(after, before)) return;
    changes.push({
      before,
      after,
      reason: line.reason,
      reference: line.reference,
      source: 'api',
      keyId: caller.keyId,
      requestId: caller.requestId,
    });
  });
  if (refusals.length > 0) return { outcome: { kind: 'refused', refusals }, changes: [] };
  for (const [petId, row] of state) rows.set(petId, row);
  return { outcome: { kind: 'applied', rows: applied }, changes };
}

interface Call {
  lines: readonly StockLine[];
  caller: Caller;
  inTransaction?: InTransaction;
  resolve(outcome: StockLinesOutcome): void;
  reject(err: unknown): void;
}

/** Calls whose own work failed: the group's transaction is undone and runs again without them. */
class OwnWorkFailed {
  constructor(readonly failures: readonly { call: Call; error: unknown }[]) {}
}

const MAX_GROUP = 256;
// Keeps a group's statements (a parameter per pet locked) well inside both drivers' limits.
const MAX_GROUP_LINES = 5_000;

/**
 * Stock changes, all lines of a call or none, in one transaction. Calls that arrive together
 * (one turn of the event loop) commit together, each still all or nothing: group commit. When a
 * call's own work (inTransaction) fails, as a duplicate Idempotency-Key does, the group is rolled
 * back and committed again without that call, which is answered after that commit, so a
 * duplicate's loser finds the winner's record. Work shared by several calls (the idempotency
 * records) is done once for all of them. (A savepoint per call would cost two more round
 * trips on every call, for a case that is rare.) The pets are written once each and the changes
 * appended in call and line order, a statement for all. On PostgreSQL the write counter is
 * locked first and the pets next, so writers queue rather than deadlock and every change lands in
 * commit order; SQLite has one writer.
 */
@Injectable()
export class StockLinesService implements StockLinesWriter {
  private readonly logger = new Logger(StockLinesService.name);
  private queued: Call[] = [];
  private flushing = false;

  constructor(
    private readonly repository: InventoryRepository,
    private readonly committed: StockCommitted,
  ) {}

  applyLines(
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction?: InTransaction,
  ): Promise<StockLinesOutcome> {
    return new Promise((resolve, reject) => {
      this.queued.push({ lines, caller, inTransaction, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushing || this.queued.length === 0) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    let size = 0;
    let lines = 0;
    while (size < Math.min(MAX_GROUP, this.queued.length)) {
      lines += this.queued[size].lines.length;
      if (size > 0 && lines > MAX_GROUP_LINES) break;
      size++;
    }
    const group = this.queued.splice(0, size);
    try {
      await this.commit(group);
    } catch (err) {
      if (group.length === 1) group[0].reject(err);
      else if (isConnectionLost(err)) {
        // Its connection broke (a killed backend): the group runs once more, on another.
        await this.commit(group).catch((again: unknown) => {
          for (const call of group) call.reject(again);
        });
      } else if (isDatabaseUnavailable(err)) {
        // Down or not answering: each call gets its 503 now, not after a retry of its own, and so
        // do the calls that queued behind it meanwhile, rather than wait out one timeout more.
        for (const call of [...group, ...this.queued.splice(0)]) call.reject(err);
      } else {
        // One call's failure (a constraint) must not fail the others.
        this.logger.warn(`A group of ${group.length} stock writes failed; retrying each alone`);
        for (const call of group) await this.commit([call]).catch((e: unknown) => call.reject(e));
      }
    } finally {
      this.flushing = false;
      this.schedule();
    }
  }

  private async commit(group: Call[]): Promise<void> {
    const failed: { call: Call; error: unknown }[] = [];
    let live = group;
    while (live.length > 0) {
      try {
        const { outcomes, skipped } = await this.repository.transaction((manager) =>
          this.apply(manager, live),
        );
        if ([...outcomes.values()].some((outcome) => outcome.kind === 'applied'))
          this.committed.notify();
        for (const [call, outcome] of outcomes) call.resolve(outcome);
        failed.push(...skipped);
        break;
      } catch (err) {
        if (!(err instanceof OwnWorkFailed)) throw err;
        failed.push(...err.failures);
        const out = new Set(err.failures.map((failure) => failure.call));
        live = live.filter((call) => !out.has(call));
      }
    }
    for (const { call, error } of failed) call.reject(error);
  }

  private async apply(
    manager: EntityManager,
    calls: Call[],
  ): Promise<{
    outcomes: Map<Call, StockLinesOutcome>;
    skipped: { call: Call; error: unknown }[];
  }> {
    const counter = await this.repository.lockCounter(manager);
    const skipped = await this.skipped(manager, calls);
    const out = new Set(skipped.map((skip) => skip.call));
    const group = calls.filter((call) => !out.has(call));
    const ids = [...new Set(group.flatMap((call) => call.lines.map((l) => l.petId.toString())))];
    const locked = await this.repository.lockRows(manager, ids);
    const rows = new Map(locked.map((row) => [row.petId, row]));
    const outcomes: StockLinesOutcome[] = [];
    const changes: StockChange[] = [];
    for (const call of group) {
      const decided = decideLines(rows, call.lines, call.caller);
      outcomes.push(decided.outcome);
      changes.push(...decided.changes);
    }
    const written = locked.filter((before) => !sameStock(before, rows.get(before.petId)!));
    await this.repository.setStocks(
      manager,
      written.map((before) => rows.get(before.petId)!),
    );
    if (changes.length > 0) await this.repository.appendChanges(manager, counter, changes);
    const failures = await this.runWork(manager, group, outcomes);
    if (failures.length > 0) throw new OwnWorkFailed(failures);
    return { outcomes: new Map(group.map((call, i) => [call, outcomes[i]])), skipped };
  }

  /** The calls that some work takes out before their lines are decided. */
  private async skipped(
    manager: EntityManager,
    group: readonly Call[],
  ): Promise<{ call: Call; error: unknown }[]> {
    const skipped: { call: Call; error: unknown }[] = [];
    for (const [work, indexes] of this.shares(group)) {
      if (!work.skip) continue;
      const errors = await work.skip(
        manager,
        indexes.map((i) => group[i].inTransaction!.item),
      );
      indexes.forEach((i, j) => {
        if (errors[j] !== undefined) skipped.push({ call: group[i], error: errors[j] });
      });
    }
    return skipped;
  }

  /** Each kind of work, with the indexes of the calls that carry it. */
  private shares(group: readonly Call[]): Map<GroupWork<unknown>, number[]> {
    const shares = new Map<GroupWork<unknown>, number[]>();
    group.forEach((call, i) => {
      const work = call.inTransaction?.work;
      if (!work) return;
      const indexes = shares.get(work);
      if (indexes) indexes.push(i);
      else shares.set(work, [i]);
    });
    return shares;
  }

  /** Each kind of work once, for all the calls that carry it, in call order. */
  private async runWork(
    manager: EntityManager,
    group: readonly Call[],
    outcomes: readonly StockLinesOutcome[],
  ): Promise<{ call: Call; error: unknown }[]> {
    const failures: { call: Call; error: unknown }[] = [];
    for (const [work, indexes] of this.shares(group)) {
      const errors = await work.run(
        manager,
        indexes.map((i) => ({ item: group[i].inTransaction!.item, outcome: outcomes[i] })),
      );
      indexes.forEach((i, j) => {
        if (errors[j] !== undefined) failures.push({ call: group[i], error: errors[j] });
      });
    }
    return failures;
  }
}
