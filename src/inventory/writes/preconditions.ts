import { hash } from 'node:crypto';
import { ValidationFailedError } from '../../common/errors/api-error.js';
import { type InventoryRow, inventoryItemJson } from '../inventory-row.js';

/** A strong validator of one item's representation (RFC 9110 §8.8.3): equal states, equal tags. */
export function itemEtag(row: InventoryRow): string {
  const digest = hash('sha256', inventoryItemJson(row), 'base64url');
  return `"${digest.slice(0, 22)}"`;
}

export type IfMatch = '*' | readonly string[];

const DQUOTE = 0x22;
const COMMA = 0x2c;

// etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3)
function isEtagChar(code: number): boolean {
  return code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

const isOws = (code: number) => code === 0x20 || code === 0x09;

/**
 * `#entity-tag` (RFC 9110 §5.6.1, §8.8.3): the tags as written, `W/` kept; a comma inside the
 * quotes belongs to the tag, and empty list elements are skipped. Undefined when malformed.
 */
export function parseEntityTags(value: string): string[] | undefined {
  const tags: string[] = [];
  let i = 0;
  for (;;) {
    while (i < value.length && (isOws(value.charCodeAt(i)) || value.charCodeAt(i) === COMMA)) i++;
    if (i === value.length) return tags;
    const start = i;
    if (value.startsWith('W/', i)) i += 2;
    if (value.charCodeAt(i) !== DQUOTE) return undefined;
    for (i++; i < value.length && value.charCodeAt(i) !== DQUOTE; i++) {
      if (!isEtagChar(value.charCodeAt(i))) return undefined;
    }
    if (i === value.length) return undefined;
    tags.push(value.slice(start, ++i));
    while (i < value.length && isOws(value.charCodeAt(i))) i++;
    if (i < value.length && value.charCodeAt(i) !== COMMA) return undefined;
  }
}

/** Parses If-Match (RFC 9110 §13.1.1): `*` alone, or entity tags; undefined when absent, 400 when malformed. */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value.trim() === '*') return '*';
  const tags = parseEntityTags(value);
  if (tags === undefined || tags.length === 0)
    throw new ValidationFailedError(
      'If-Match must be "*" or a comma-separated list of entity tags such as "abc" or W/"abc"',
    );
  return tags;
}

/** Strong comparison: a weak tag never matches (RFC 9110 §8.8.3.2). */
export function ifMatchAllows(ifMatch: IfMatch | undefined, current: InventoryRow): boolean {
  if (ifMatch === undefined || ifMatch === '*') return true;
  const etag = itemEtag(current);
  return ifMatch.some((tag) => tag === etag);
}
