import { ValidationFailedError } from '../../common/errors/api-error.js';

const MAX_POSITION = 2n ** 63n - 1n;
const TEXT = /^[A-Za-z0-9_-]{1,32}$/;
const DECODED = /^c(0|[1-9][0-9]{0,18})$/;

export function encodeCursor(position: bigint): string {
  return Buffer.from(`c${position}`).toString('base64url');
}

export function decodeCursor(text: string): bigint {
  const decoded = TEXT.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : '';
  const match = DECODED.exec(decoded);
  const position = match ? BigInt(match[1]) : -1n;
  if (position < 0n || position > MAX_POSITION || encodeCursor(position) !== text)
    throw new ValidationFailedError('after must be a cursor this API returned');
  return position;
}

export const DEFAULT_PAGE = 100;
