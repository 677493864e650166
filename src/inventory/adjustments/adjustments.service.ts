import { Injectable } from '@nestjs/common';
import type { StoredAnswer } from '../../idempotency/idempotency.repository.js';
import {
  IdempotencyService,
  type IdempotentOutcome,
  type IdempotentRequest,
} from '../../idempotency/idempotency.service.js';
import type {
  InTransaction,
  StockLine,
  StockLinesOutcome,
  StockLinesWriter,
} from '../writes/stock-lines.js';
import type { Caller } from '../writes/stock-write.js';
import type { InventoryAdjustment } from './dto/inventory-adjustment.dto.js';
import { batchPetId, type InventoryBatch } from './dto/inventory-batch.dto.js';
import { adjustmentAnswer, batchAnswer } from './stock-changes.answers.js';

/** The injection token of the all-or-nothing writer. */
export abstract class StockLines implements StockLinesWriter {
  abstract applyLines(
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction?: InTransaction,
  ): Promise<StockLinesOutcome>;
}

@Injectable()
export class AdjustmentsService {
  constructor(
    private readonly writer: StockLines,
    private readonly idempotency: IdempotencyService,
  ) {}

  adjust(
    petId: bigint,
    adjustment: InventoryAdjustment,
    request: IdempotentRequest,
    caller: Caller,
  ): Promise<IdempotentOutcome> {
    const line: StockLine = {
      petId,
      delta: adjustment.delta,
      reason: adjustment.reason ?? null,
      reference: adjustment.reference ?? null,
    };
    return this.apply([line], request, caller, (outcome) =>
      adjustmentAnswer(petId, adjustment.delta, outcome),
    );
  }

  batch(
    batch: InventoryBatch,
    request: IdempotentRequest,
    caller: Caller,
  ): Promise<IdempotentOutcome> {
    const lines: StockLine[] = batch.changes.map((change) => ({
      petId: batchPetId(change.petId)!,
      quantity: change.quantity,
      delta: change.delta,
      expectedQuantity: change.expectedQuantity,
      reason: change.reason ?? null,
      reference: change.reference ?? null,
    }));
    const petIds = lines.map((line) => line.petId);
    return this.apply(lines, request, caller, (outcome) => batchAnswer(petIds, outcome));
  }

  private apply(
    lines: StockLine[],
    request: IdempotentRequest,
    caller: Caller,
    answer: (outcome: StockLinesOutcome) => StoredAnswer,
  ): Promise<IdempotentOutcome> {
    return this.idempotency.once(request, answer, (keep) =>
      this.writer.applyLines(lines, caller, keep),
    );
  }
}
