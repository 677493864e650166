import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../common/errors/api-error.js';
import {
  IdempotencyService,
  type IdempotentOutcome,
  type IdempotentRequest,
} from '../idempotency/idempotency.service.js';
import type { InventoryItem } from '../inventory/dto/inventory-item.dto.js';
import { availableOf, itemOf, type InventoryRow } from '../inventory/inventory-row.js';
import { nextStatus } from '../inventory/pet-status.js';
import { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import { StockCommitted } from '../inventory/writes/stock-committed.js';
import type { Caller } from '../inventory/writes/stock-write.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { DEFAULT_EXPIRES_IN, type HoldRequest } from './dto/hold-request.dto.js';
import type { Hold } from './dto/hold.dto.js';
import { type HoldRow, holdOf, isHoldId, statusAt } from './hold-row.js';
import { HoldsRepository } from './holds.repository.js';
import {
  creationAnswer,
  type HoldCreation,
  holdNotActive,
  insufficientStock,
} from './holds.answers.js';

const holdNotFound = (holdId: string) => new NotFoundError(`No hold with id ${holdId}`);

/**
 * Holds keep units of a pet for a while. Each is one transaction that locks the write counter and
 * then the pet's row, as stock writes do (so they queue rather than deadlock), and moves the
 * counter on: the listing of every instance is read again. On PostgreSQL the row lock makes the
 * units held exact across instances; SQLite has one writer.
 */
@Injectable()
export class HoldsService {
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
    return this.idempotency.once<HoldCreation>(request, creationAnswer, (keep) =>
      this.inventory.transaction(async (manager) => {
        const counter = await this.inventory.lockCounter(manager);
        const [row] = await this.inventory.lockRows(manager, [petId.toString()]);
        const now = this.now();
        const outcome: HoldCreation = !row
          ? { kind: 'not_found', petId }
          : availableOf(row) < body.quantity
            ? { kind: 'insufficient', current: row, quantity: body.quantity }
            : {
                kind: 'created',
                hold: {
                  holdId: randomUUID(),
                  petId: row.petId,
                  quantity: body.quantity,
                  status: 'active',
                  reference: body.reference ?? null,
                  createdAt: now,
                  expiresAt: now + (body.expiresIn ?? DEFAULT_EXPIRES_IN) * 1000,
                  endedAt: null,
                },
              };
        const [taken] = await keep.work.run(manager, [{ item: keep.item, outcome }]);
        // Its key was answered meanwhile: nothing of this request is written.
        if (taken !== undefined) throw taken;
        if (outcome.kind === 'created') {
          await this.holds.insert(manager, outcome.hold);
          await this.inventory.bump(manager, counter);
        }
        return outcome;
      }),
    );
  }

  async get(holdId: string): Promise<Hold> {
    const row = isHoldId(holdId)
      ? await this.holds.read((manager) => this.holds.find(manager, holdId))
      : undefined;
    if (!row) throw holdNotFound(holdId);
    return holdOf(row, this.now());
  }

  async list(petId: bigint): Promise<Hold[]> {
    const now = this.now();
    const { pet, holds } = await this.holds.read(async (manager) => ({
      pet: await this.inventory.find(petId, manager),
      holds: await this.holds.active(manager, petId, now),
    }));
    if (!pet) throw new NotFoundError(`No pet with id ${petId}`);
    return holds.map((hold) => holdOf(hold, now));
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
