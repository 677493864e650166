import { hash } from 'node:crypto';
import { ValidationFailedError } from '../../common/errors/api-error.js';
import type { InventoryRow } from '../inventory-row.js';

/** A strong validator of one item's representation (RFC 9110 §8.8.3): equal states, equal tags. */
export function itemEtag(row: InventoryRow): string {
  const digest = hash('sha256', `${row.petId}:${row.quantity}:${row.status}`, 'base64url');
  return `"${digest.slice(0, 22)}"`;
}

export type IfMatch = '*' | readonly string[];

const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** Parses If-Match (RFC 9110 §13.1.1); undefined when absent, 400 when malformed. */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return '*';
  const tags = value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length === 0 || !tags.every((tag) => ENTITY_TAG.test(tag)))
    throw new ValidationFailedError(
      'If-Match must be "*" or a comma-separated list of entity tags such as "abc"',
    );
  return tags;
}

/** Strong comparison: a weak tag never matches (RFC 9110 §8.8.3.2). */
export function ifMatchAllows(ifMatch: IfMatch | undefined, current: InventoryRow): boolean {
  if (ifMatch === undefined || ifMatch === '*') return true;
  const etag = itemEtag(current);
  return ifMatch.some((tag) => tag === etag);
}
