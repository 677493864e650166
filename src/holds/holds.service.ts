import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../common/errors/api-error.js';
import { isDatabaseUnavailable, isUnanswered } from '../database/database-errors.js';
import { GroupCommitQueue } from '../database/group-commit.js';
import {
  type AnswerKeeper,
  IdempotencyService,
  type IdempotentOutcome,
  type IdempotentRequest,
  type KeepAnswer,
} from '../idempotency/idempotency.service.js';
import type { InventoryItem } from '../inventory/dto/inventory-item.dto.js';
import { availableOf, itemOf, type InventoryRow } from '../inventory/inventory-row.js';
import { nextStatus } from '../inventory/pet-status.js';
import { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import { StockCommitted } from '../inventory/writes/stock-committed.js';
import type { Caller } from '../inventory/writes/stock-write.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { MAX_PAGE } from '../common/pipes/page-query.js';
import { DEFAULT_EXPIRES_IN, type HoldRequest } from './dto/hold-request.dto.js';
import type { Hold } from './dto/hold.dto.js';
import type { HoldsQuery } from './dto/holds-query.dto.js';
import { decodeHoldCursor, encodeHoldCursor } from './hold-cursor.js';
import { type HoldRow, holdOf, isHoldId, statusAt } from './hold-row.js';
import { HoldsRepository } from './holds.repository.js';
import {
  creationAnswer,
  type HoldCreation,
  holdNotActive,
  insufficientStock,
} from './holds.answers.js';

const holdNotFound = (holdId: string) => new NotFoundError(`No hold with id ${holdId}`);

// As stock writes: a group's statements stay well inside both drivers' parameter limits.
const MAX_GROUP = 256;

interface PendingHold {
  petId: bigint;
  body: HoldRequest;
  keep: KeepAnswer<HoldCreation>;
  holdId: string;
  resolve(outcome: HoldCreation): void;
  reject(err: unknown): void;
}

/** Each hold in order, against the locked rows and the units the holds before it kept. */
function decideHolds(
  rows: ReadonlyMap<string, InventoryRow>,
  calls: readonly PendingHold[],
  now: number,
): HoldCreation[] {
  const kept = new Map<string, number>();
  return calls.map(({ petId, body, holdId }): HoldCreation => {
    const locked = rows.get(petId.toString());
    if (!locked) return { kind: 'not_found', petId };
    const row = { ...locked, held: (locked.held ?? 0) + (kept.get(locked.petId) ?? 0) };
    if (availableOf(row) < body.quantity)
      return { kind: 'insufficient', current: row, quantity: body.quantity };
    kept.set(row.petId, (kept.get(row.petId) ?? 0) + body.quantity);
    return {
      kind: 'created',
      hold: {
        holdId,
        petId: row.petId,
        quantity: body.quantity,
        status: 'active',
        reference: body.reference ?? null,
        createdAt: now,
        expiresAt: now + (body.expiresIn ?? DEFAULT_EXPIRES_IN) * 1000,
        endedAt: null,
      },
    };
  });
}

function sharesOf(calls: readonly PendingHold[]): Map<AnswerKeeper<HoldCreation>, number[]> {
  const shares = new Map<AnswerKeeper<HoldCreation>, number[]>();
  calls.forEach((call, i) => {
    const indexes = shares.get(call.keep.work);
    if (indexes) indexes.push(i);
    else shares.set(call.keep.work, [i]);
  });
  return shares;
}

/**
 * Holds keep units of a pet for a while. Every change of them is a transaction that locks the
 * write counter and then the pets' rows, as stock writes do (so they queue rather than deadlock),
 * and moves the counter on: the listing of every instance is read again. On PostgreSQL the row
 * locks make the units held exact across instances; SQLite has one writer.
 */
type HoldsPage = Required<HoldsQuery>;

@Injectable()
export class HoldsService {
  private readonly queue = new GroupCommitQueue<PendingHold>(
    (waiting) => Math.min(MAX_GROUP, waiting.length),
    (group) => this.commitGroup(group),
  );

  constructor(
    private readonly holds: HoldsRepository,
    private readonly inventory: InventoryRepository,
    private readonly idempotency: IdempotencyService,
    private readonly committed: StockCommitted,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    metrics?.countActiveHolds(() => this.holds.countActive(this.now()));
  }

  private now(): number {
    return this.inventory.clock.now();
  }

  create(petId: bigint, body: HoldRequest, request: IdempotentRequest): Promise<IdempotentOutcome> {
    return this.idempotency.once<HoldCreation>(
      request,
      creationAnswer,
      (keep) =>
        new Promise((resolve, reject) => {
          this.queue.push({ petId, body, keep, holdId: randomUUID(), resolve, reject });
        }),
    );
  }

  private async commitGroup(group: PendingHold[]): Promise<void> {
    try {
      await this.commit(group);
    } catch (err) {
      if (isUnanswered(err))
        for (const call of [...group, ...this.queue.takeWaiting()]) call.reject(err);
      else if (group.length === 1 || isDatabaseUnavailable(err))
        for (const call of group) call.reject(err);
      // Whose fault is unknown: each runs alone, so one bad request fails by itself.
      else
        for (const call of group) await this.commit([call]).catch((e: unknown) => call.reject(e));
    }
  }

  /**
   * The holds asked for in one turn of the event loop, in one transaction (group commit, as stock
   * writes): each decided in arrival order against what the ones before it kept. A request whose
   * Idempotency-Key is taken meanwhile is taken out, and the others are decided again without it.
   */
  private async commit(group: PendingHold[]): Promise<void> {
    const done = await this.inventory.transaction(async (manager) => {
      const counter = await this.inventory.lockCounter(manager);
      const ids = [...new Set(group.map((call) => call.petId.toString()))];
      const locked = await this.inventory.lockRows(manager, ids);
      const rows = new Map(locked.map((row) => [row.petId, row]));
      const now = this.now();
      let calls = group;
      let outcomes = decideHolds(rows, calls, now);
      const shares = () =>
        [...sharesOf(calls)].map(
          ([work, indexes]) =>
            [
              work,
              indexes,
              indexes.map((i) => ({ item: calls[i].keep.item, outcome: outcomes[i] })),
            ] as const,
        );
      const taken: { call: PendingHold; error: unknown }[] = [];
      for (const [work, indexes, items] of shares()) {
        const errors = await work.run(manager, items);
        indexes.forEach((i, j) => {
          if (errors[j] !== undefined) taken.push({ call: calls[i], error: errors[j] });
        });
      }
      if (taken.length > 0) {
        const out = new Set(taken.map(({ call }) => call));
        calls = calls.filter((call) => !out.has(call));
        outcomes = decideHolds(rows, calls, now);
        for (const [work, , items] of shares()) await work.revise(manager, items);
      }
      const created = outcomes.flatMap((o) => (o.kind === 'created' ? [o.hold] : []));
      if (created.length > 0) {
        await this.holds.insertAll(manager, created);
        await this.inventory.bump(manager, counter);
      }
      return { calls, outcomes, taken };
    });
    done.calls.forEach((call, i) => call.resolve(done.outcomes[i]));
    for (const { call, error } of done.taken) call.reject(error);
  }

  async get(holdId: string): Promise<Hold> {
    const row = isHoldId(holdId)
      ? await this.holds.read((manager) => this.holds.find(manager, holdId))
      : undefined;
    if (!row) throw holdNotFound(holdId);
    return holdOf(row, this.now());
  }

  /** A page of the pet's active holds, and the cursor of the next one when this one is full. */
  async list(petId: bigint, query: HoldsQuery): Promise<{ holds: Hold[]; next?: HoldsPage }> {
    const now = this.now();
    const limit = query.limit === undefined ? MAX_PAGE : Number(query.limit);
    const after = query.after === undefined ? undefined : decodeHoldCursor(query.after);
    const { pet, holds } = await this.holds.read(async (manager) => ({
      pet: await this.inventory.find(petId, manager),
      holds: await this.holds.active(manager, petId, now, { after, limit }),
    }));
    if (!pet) throw new NotFoundError(`No pet with id ${petId}`);
    const last = holds.at(-1);
    return {
      holds: holds.map((hold) => holdOf(hold, now)),
      next:
        last && holds.length === limit
          ? { after: encodeHoldCursor(last), limit: String(limit) }
          : undefined,
    };
  }

  /** The held units leave stock in one change (reason `sold`), once. */
  async confirm(holdId: string, caller: Caller): Promise<{ hold: Hold; item: InventoryItem }> {
    if (!isHoldId(holdId)) throw holdNotFound(holdId);
    const done = await this.inventory.transaction(async (manager) => {
      const counter = await this.inventory.lockCounter(manager);
      const hold = await this.holds.find(manager, holdId);
      if (!hold) throw holdNotFound(holdId);
      const [row] = await this.inventory.lockRows(manager, [hold.petId]);
      const now = this.now();
      const status = statusAt(hold, now);
      if (status === 'confirmed') return { hold, row, now, changed: false };
      if (status !== 'active') throw holdNotActive(hold, now, 'confirmed');
      if (!row) throw new NotFoundError(`No pet with id ${hold.petId}`);
      if (row.quantity < hold.quantity)
        throw insufficientStock(row, `the hold's ${hold.quantity} cannot leave stock`);
      const quantity = row.quantity - hold.quantity;
      const after: InventoryRow = {
        ...row,
        quantity,
        status: nextStatus(row.status, quantity),
        held: (row.held ?? 0) - hold.quantity,
      };
      await this.inventory.setStocks(manager, [after]);
      await this.inventory.appendChanges(manager, counter, [
        {
          before: row,
          after,
          reason: 'sold',
          reference: hold.reference,
          source: 'api',
          keyId: caller.keyId,
          requestId: caller.requestId,
        },
      ]);
      await this.holds.end(manager, holdId, 'confirmed', now);
      const confirmed: HoldRow = { ...hold, status: 'confirmed', endedAt: now };
      return { hold: confirmed, row: after, now, changed: true };
    });
    if (done.changed) {
      this.committed.notify();
      this.metrics?.holdEnded('confirmed');
    }
    return { hold: holdOf(done.hold, done.now), item: itemOf(done.row!) };
  }

  /** Its units are available at once; releasing an ended hold (but a confirmed one) changes nothing. */
  async release(holdId: string): Promise<Hold> {
    if (!isHoldId(holdId)) throw holdNotFound(holdId);
    const done = await this.inventory.transaction(async (manager) => {
      const counter = await this.inventory.lockCounter(manager);
      const hold = await this.holds.find(manager, holdId);
      if (!hold) throw holdNotFound(holdId);
      const now = this.now();
      const status = statusAt(hold, now);
      if (status === 'confirmed') throw holdNotActive(hold, now, 'released');
      if (status !== 'active') return { hold, now, changed: false };
      await this.holds.end(manager, holdId, 'released', now);
      await this.inventory.bump(manager, counter);
      const released: HoldRow = { ...hold, status: 'released', endedAt: now };
      return { hold: released, now, changed: true };
    });
    if (done.changed) this.metrics?.holdEnded('released');
    return holdOf(done.hold, done.now);
  }
}
