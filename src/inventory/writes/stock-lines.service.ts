import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  isConnectionLost,
  isDatabaseUnavailable,
  isUnanswered,
} from '../../database/database-errors.js';
import { GroupCommitQueue } from '../../database/group-commit.js';
import { savepoint } from '../../database/sql.js';
import { MAX_QUANTITY } from '../dto/inventory-update.dto.js';
import { type InventoryRow, sameItem, sameStock } from '../inventory-row.js';
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
    // Held units are kept from removals; a `quantity` line is a count and applies as sent.
    if (line.delta !== undefined && line.delta < 0 && quantity < (before.held ?? 0))
      return refuse('insufficient_stock');
    if (quantity > MAX_QUANTITY) return refuse('quantity_out_of_range');
    const status = nextStatus(before.status, quantity);
    const after: InventoryRow = { ...before, ...line.set, petId, quantity, status };
    state.set(petId, after);
    applied.push(after);
    // The stock history records quantity and status; other fields are written without a change.
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

/** The lines of some calls, in call order, against the rows as the calls before them left them. */
function decideCalls(
  before: ReadonlyMap<string, InventoryRow>,
  calls: readonly Call[],
): { rows: Map<string, InventoryRow>; outcomes: StockLinesOutcome[]; changes: StockChange[] } {
  const rows = new Map(before);
  const outcomes: StockLinesOutcome[] = [];
  const changes: StockChange[] = [];
  for (const call of calls) {
    const decided = decideLines(rows, call.lines, call.caller);
    outcomes.push(decided.outcome);
    changes.push(...decided.changes);
  }
  return { rows, outcomes, changes };
}

/** A group's transaction so far: the rows and counter as its written calls left them. */
interface Written {
  rows: Map<string, InventoryRow>;
  counter: bigint;
  outcomes: Map<Call, StockLinesOutcome>;
  failures: { call: Call; error: unknown }[];
}

// The savepoint could not be rolled back to: every later statement would fail the same way.
function transactionAborted(err: unknown): boolean {
  const code = (err as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return code === '25P02';
}

const MAX_GROUP = 256;
// Keeps a group's statements (a parameter per pet locked) well inside both drivers' limits.
const MAX_GROUP_LINES = 5_000;

function groupSize(waiting: readonly Call[]): number {
  let size = 0;
  let lines = 0;
  while (size < Math.min(MAX_GROUP, waiting.length)) {
    lines += waiting[size].lines.length;
    if (size > 0 && lines > MAX_GROUP_LINES) break;
    size++;
  }
  return size;
}

/**
 * Stock changes, all lines of a call or none, in one transaction. Calls that arrive together
 * (one turn of the event loop) commit together, each still all or nothing: group commit. Work
 * shared by several calls (the idempotency records) is done once for all of them, after their
 * lines are decided and before anything is written: a call whose share could not be done (its
 * Idempotency-Key taken) is taken out, and the others' lines are decided again without it, in
 * memory (their rows stay locked): no rollback. The pets are written once each and the changes
 * appended in call and line order, a statement for all; a statement that fails for one call's
 * sake fails that call alone (isolate). On PostgreSQL the write counter is locked first and the
 * pets next, so writers queue rather than deadlock and every change lands in commit order; SQLite
 * has one writer.
 */
@Injectable()
export class StockLinesService implements StockLinesWriter {
  private readonly logger = new Logger(StockLinesService.name);
  private readonly queue = new GroupCommitQueue<Call>(groupSize, (group) =>
    this.commitGroup(group),
  );

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
      this.queue.push({ lines, caller, inTransaction, resolve, reject });
    });
  }

  private async commitGroup(group: Call[]): Promise<void> {
    try {
      await this.commit(group);
    } catch (err) {
      if (isUnanswered(err)) {
        // Each call gets its 503 now, not after a retry of its own, and so do the calls that
        // queued behind it meanwhile.
        for (const call of [...group, ...this.queue.takeWaiting()]) call.reject(err);
      } else if (group.length === 1) group[0].reject(err);
      else if (isConnectionLost(err)) {
        // Its connection broke (a killed backend): the group runs once more, on another.
        await this.commit(group).catch((again: unknown) => {
          for (const call of group) call.reject(again);
        });
      } else {
        // Failed outside any call's savepoint (the locks, the commit): whose fault is unknown.
        this.logger.warn(`A group of ${group.length} stock writes failed; retrying each alone`);
        for (const call of group) await this.commit([call]).catch((e: unknown) => call.reject(e));
      }
    }
  }

  private async commit(group: Call[]): Promise<void> {
    const { outcomes, failures } = await this.repository.transaction((manager) =>
      this.apply(manager, group),
    );
    if ([...outcomes.values()].some((outcome) => outcome.kind === 'applied'))
      this.committed.notify();
    for (const [call, outcome] of outcomes) call.resolve(outcome);
    for (const { call, error } of failures) call.reject(error);
  }

  private async apply(manager: EntityManager, calls: Call[]): Promise<Written> {
    const counter = await this.repository.lockCounter(manager);
    const ids = [...new Set(calls.flatMap((call) => call.lines.map((l) => l.petId.toString())))];
    const locked = await this.repository.lockRows(manager, ids);
    const written: Written = {
      rows: new Map(locked.map((row) => [row.petId, row])),
      counter,
      outcomes: new Map(),
      failures: [],
    };
    await this.isolate(manager, calls, written);
    return written;
  }

  /**
   * Writes the calls in a savepoint. A statement that fails undoes their writes alone (the rows
   * stay locked); they are then written again in halves, in call order, until the call that fails
   * is alone: it fails alone, the others commit with the group (docs/architecture.md).
   */
  private async isolate(manager: EntityManager, calls: Call[], written: Written): Promise<void> {
    try {
      const done = await savepoint(manager, (inner) => this.writeCalls(inner, calls, written));
      written.rows = done.rows;
      written.counter = done.counter;
      for (const [call, outcome] of done.outcomes) written.outcomes.set(call, outcome);
      written.failures.push(...done.failures);
    } catch (err) {
      if (isDatabaseUnavailable(err) || transactionAborted(err)) throw err;
      if (calls.length === 1) return void written.failures.push({ call: calls[0], error: err });
      const half = Math.ceil(calls.length / 2);
      await this.isolate(manager, calls.slice(0, half), written);
      await this.isolate(manager, calls.slice(half), written);
    }
  }

  private async writeCalls(
    manager: EntityManager,
    calls: Call[],
    before: Written,
  ): Promise<Written> {
    let group = calls;
    let decided = decideCalls(before.rows, group);
    const failures = await this.runWork(manager, group, decided.outcomes);
    if (failures.length > 0) {
      const out = new Set(failures.map((failure) => failure.call));
      group = group.filter((call) => !out.has(call));
      decided = decideCalls(before.rows, group);
      await this.reviseWork(manager, group, decided.outcomes);
    }
    const { rows, outcomes, changes } = decided;
    const written = [...rows.values()].filter(
      (after) => !sameItem(before.rows.get(after.petId)!, after),
    );
    await this.repository.setStocks(manager, written);
    const counter =
      changes.length > 0 || written.length > 0
        ? await this.repository.appendChanges(manager, before.counter, changes, written.length > 0)
        : before.counter;
    return {
      rows,
      counter,
      outcomes: new Map(group.map((call, i) => [call, outcomes[i]])),
      failures,
    };
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
      const errors = await work.run(manager, this.sharesOf(group, indexes, outcomes));
      indexes.forEach((i, j) => {
        if (errors[j] !== undefined) failures.push({ call: group[i], error: errors[j] });
      });
    }
    return failures;
  }

  private async reviseWork(
    manager: EntityManager,
    group: readonly Call[],
    outcomes: readonly StockLinesOutcome[],
  ): Promise<void> {
    for (const [work, indexes] of this.shares(group))
      await work.revise(manager, this.sharesOf(group, indexes, outcomes));
  }

  private sharesOf(
    group: readonly Call[],
    indexes: readonly number[],
    outcomes: readonly StockLinesOutcome[],
  ): { item: unknown; outcome: StockLinesOutcome }[] {
    return indexes.map((i) => ({ item: group[i].inTransaction!.item, outcome: outcomes[i] }));
  }
}
