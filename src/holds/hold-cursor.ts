import { ValidationFailedError } from '../common/errors/api-error.js';
import { fromCursor, toCursor } from '../common/pipes/page-query.js';
import { isHoldId } from './hold-row.js';

/** Where a page of a pet's active holds ends: its last hold, in the list's order. */
export interface HoldPosition {
  createdAt: number;
  holdId: string;
}

const DECODED = /^h(0|[1-9][0-9]{0,15})\.(.+)$/;

export function encodeHoldCursor({ createdAt, holdId }: HoldPosition): string {
  return toCursor(`h${createdAt}.${holdId}`);
}

export function decodeHoldCursor(text: string): HoldPosition {
  const match = DECODED.exec(fromCursor(text));
  const position = match && { createdAt: Number(match[1]), holdId: match[2] };
  if (!position || !Number.isSafeInteger(position.createdAt) || !isHoldId(position.holdId))
    throw new ValidationFailedError('after must be a cursor this API returned');
  return position;
}
