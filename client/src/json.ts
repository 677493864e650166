import { isInteger, isLosslessNumber, parse } from 'lossless-json';

/** Fields holding int64 identifiers: read as `bigint` wherever they appear. */
const ID_FIELDS = new Set(['id', 'petId', 'keyId']);

/**
 * Parses a JSON answer without losing precision: identifiers become `bigint` (exact beyond
 * 2^53), every other number a `number`.
 */
export function parseJson(text: string): unknown {
  return parse(text, (key, value) => {
    if (!isLosslessNumber(value)) return value;
    if (ID_FIELDS.has(key) && isInteger(value.value)) return BigInt(value.value);
    return Number(value.value);
  });
}
