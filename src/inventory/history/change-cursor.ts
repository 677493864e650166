import { ValidationFailedError } from '../../common/errors/api-error.js';
import { fromCursor, toCursor } from '../../common/pipes/page-query.js';

const MAX_POSITION = 2n ** 63n - 1n;
const DECODED = /^c(0|[1-9][0-9]{0,18})$/;

export function encodeCursor(position: bigint): string {
  return toCursor(`c${position}`);
}

export function decodeCursor(text: string): bigint {
  const match = DECODED.exec(fromCursor(text));
  const position = match ? BigInt(match[1]) : -1n;
  if (position < 0n || position > MAX_POSITION)
    throw new ValidationFailedError('after must be a cursor this API returned');
  return position;
}

export const DEFAULT_PAGE = 100;
