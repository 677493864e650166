import { hash } from 'node:crypto';
import { ValidationFailedError } from '../common/errors/api-error.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What parseIdempotencyKey reads of a request (Node's IncomingMessage has both). */
export interface KeyedRequest {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: readonly string[];
}

// Node joins repeated unknown headers with ", ": a key sent twice would become a third key.
function sentOnce(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i].toLowerCase() === 'idempotency-key' && ++seen > 1) return false;
  return true;
}

/** The request's Idempotency-Key: required, 1..255 characters, sent once. */
export function parseIdempotencyKey(req: KeyedRequest): string {
  const header = req.headers['idempotency-key'];
  if (Array.isArray(header) || !sentOnce(req.rawHeaders))
    throw new ValidationFailedError(`${IDEMPOTENCY_KEY_HEADER} must be sent once`);
  if (header === undefined || header.trim() === '')
    throw new ValidationFailedError(
      `${IDEMPOTENCY_KEY_HEADER} is required: a unique value per change, such as a UUID, sent again on each retry`,
    );
  if (header.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    throw new ValidationFailedError(
      `${IDEMPOTENCY_KEY_HEADER} must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    );
  return header;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  // An integer beyond 2^53, read exactly (json-body.guard.ts); JSON.stringify has no bigint.
  if (typeof value === 'bigint') return { int64: value.toString() };
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * What makes two requests "the same" for a key: method, path and body, the body compared as JSON
 * (member order and whitespace aside).
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return hash(
    'sha256',
    `${method.toUpperCase()} ${path}\n${JSON.stringify(canonical(body ?? null))}`,
    'hex',
  );
}
