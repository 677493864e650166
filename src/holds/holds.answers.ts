import { stringify } from 'lossless-json';
import { ApiError } from '../common/errors/api-error.js';
import type { StoredAnswer } from '../idempotency/idempotency.repository.js';
import { availableOf, type InventoryRow, itemOf } from '../inventory/inventory-row.js';
import { type HoldRow, holdOf } from './hold-row.js';

/** What creating a hold came to, decided under the pet's lock. */
export type HoldCreation =
  | { kind: 'created'; hold: HoldRow }
  | { kind: 'not_found'; petId: bigint }
  | { kind: 'insufficient'; current: InventoryRow; quantity: number };

export function insufficientStock(current: InventoryRow, wanted: string): ApiError {
  return new ApiError(
    'insufficient_stock',
    `Pet ${current.petId} has ${availableOf(current)} available (quantity ${current.quantity}): ${wanted}`,
    {},
    { current: itemOf(current) },
  );
}

/** The answer of `createHold`, kept under its Idempotency-Key: the bytes the filter would write. */
export function creationAnswer(outcome: HoldCreation): StoredAnswer {
  switch (outcome.kind) {
    case 'created':
      return {
        status: 201,
        body: stringify(holdOf(outcome.hold, outcome.hold.createdAt))!,
        etag: null,
      };
    case 'not_found':
      return errorAnswer(new ApiError('not_found', `No pet with id ${outcome.petId}`));
    case 'insufficient':
      return errorAnswer(
        insufficientStock(outcome.current, `a hold of ${outcome.quantity} cannot be kept`),
      );
  }
}

function errorAnswer(error: ApiError): StoredAnswer {
  return { status: error.status, body: stringify(error.toBody())!, etag: null };
}

export function holdNotActive(hold: HoldRow, now: number, wanted: string): ApiError {
  const current = holdOf(hold, now);
  return new ApiError(
    'hold_not_active',
    `Hold ${hold.holdId} is ${current.status}: it cannot be ${wanted}`,
    {},
    { current },
  );
}
