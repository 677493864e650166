import { ValidationFailedError } from '../common/errors/api-error.js';
import { isHoldId } from './hold-row.js';

/** Where a page of a pet's active holds ends: its last hold, in the list's order. */
export interface HoldPosition {
  createdAt: number;
  holdId: string;
}

const TEXT = /^[A-Za-z0-9_-]{1,80}$/;
const DECODED = /^h(0|[1-9][0-9]{0,15})\.(.+)$/;

export function encodeHoldCursor({ createdAt, holdId }: HoldPosition): string {
  return Buffer.from(`h${createdAt}.${holdId}`).toString('base64url');
}

export function decodeHoldCursor(text: string): HoldPosition {
  const decoded = TEXT.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : '';
  const match = DECODED.exec(decoded);
  const position = match && { createdAt: Number(match[1]), holdId: match[2] };
  if (
    !position ||
    !Number.isSafeInteger(position.createdAt) ||
    !isHoldId(position.holdId) ||
    encodeHoldCursor(position) !== text
  )
    throw new ValidationFailedError('after must be a cursor this API returned');
  return position;
}
