import { stringify } from 'lossless-json';
import { ApiError } from '../../common/errors/api-error.js';
import type { ErrorCode } from '../../common/errors/error-code.js';
import type { StoredAnswer } from '../../idempotency/idempotency.repository.js';
import { MAX_QUANTITY } from '../dto/inventory-update.dto.js';
import { itemOf } from '../inventory-row.js';
import { itemEtag } from '../writes/preconditions.js';
import type { LineRefusal, LineRefusalCode, StockLinesOutcome } from '../writes/stock-lines.js';

const ERROR_OF_REFUSAL: Record<LineRefusalCode, ErrorCode> = {
  quantity_out_of_range: 'validation_failed',
  not_found: 'not_found',
  precondition_failed: 'precondition_failed',
  quantity_mismatch: 'quantity_mismatch',
  insufficient_stock: 'insufficient_stock',
};
/** The refusal that names a refused batch, when its lines are refused for several reasons. */
const PRECEDENCE: LineRefusalCode[] = [
  'quantity_out_of_range',
  'not_found',
  'precondition_failed',
  'quantity_mismatch',
  'insufficient_stock',
];

/** The Error body exactly as AllExceptionsFilter writes it, so a replay sends the same bytes. */
function errorAnswer(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): StoredAnswer {
  const error = new ApiError(code, message, {}, details);
  return { status: error.status, body: stringify(error.toBody())!, etag: null };
}

function refusalMessage(refusal: LineRefusal, petId: bigint, change: string): string {
  const current = refusal.current;
  switch (refusal.code) {
    case 'not_found':
      return `No pet with id ${petId}`;
    case 'insufficient_stock':
      return `Pet ${petId} holds ${current!.quantity}: ${change} would leave less than 0`;
    case 'quantity_out_of_range':
      return `Pet ${petId} holds ${current!.quantity}: ${change} would exceed ${MAX_QUANTITY}`;
    case 'quantity_mismatch':
      return `Pet ${petId} holds ${current!.quantity}, not the expected quantity`;
    case 'precondition_failed':
      return `Pet ${petId} changed since its ETag was read`;
  }
}

export function adjustmentAnswer(
  petId: bigint,
  delta: number,
  outcome: StockLinesOutcome,
): StoredAnswer {
  if (outcome.kind === 'applied') {
    const [row] = outcome.rows;
    return { status: 200, body: stringify(itemOf(row))!, etag: itemEtag(row) };
  }
  const [refusal] = outcome.refusals;
  const message = refusalMessage(refusal, petId, `an adjustment of ${delta}`);
  return errorAnswer(
    ERROR_OF_REFUSAL[refusal.code],
    message,
    refusal.current && refusal.code !== 'quantity_out_of_range'
      ? { current: itemOf(refusal.current) }
      : undefined,
  );
}

export function batchAnswer(petIds: readonly bigint[], outcome: StockLinesOutcome): StoredAnswer {
  if (outcome.kind === 'applied')
    return { status: 200, body: stringify({ items: outcome.rows.map(itemOf) })!, etag: null };
  const { refusals } = outcome;
  const first = PRECEDENCE.map((code) => refusals.find((r) => r.code === code)).find(
    (refusal) => refusal !== undefined,
  )!;
  const others = refusals.length - 1;
  const message =
    `Nothing was changed: line ${first.index + 1} was refused (${refusalMessage(first, petIds[first.index], 'the line')})` +
    (others > 0 ? `, and ${others} more line${others > 1 ? 's' : ''}` : '');
  return errorAnswer(ERROR_OF_REFUSAL[first.code], message, {
    lines: refusals.map((refusal) => ({
      index: refusal.index,
      code: ERROR_OF_REFUSAL[refusal.code],
      ...(refusal.current ? { current: itemOf(refusal.current) } : {}),
    })),
  });
}
