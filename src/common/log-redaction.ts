/**
 * Anything shaped like an API key: a key prefix and at least 16 base62 characters. Keys have 40,
 * display prefixes (`pk_test_AbCd`, safe to show) have 4. Keys are meant to travel only in
 * `Authorization` (redacted by path), but clients misplace them in URLs, query strings and other
 * headers, and whatever the client sent is what a request log records.
 */
const API_KEY_LIKE = /pk_(?:live|test)_[0-9A-Za-z]{16,}/g;
const ONE_API_KEY_LIKE = new RegExp(API_KEY_LIKE.source);
const SHOWN = 'pk_test_'.length + 4;

export function looksLikeApiKey(text: string): boolean {
  return ONE_API_KEY_LIKE.test(text);
}

/** Replaces every key-shaped token in `text`, keeping only its display prefix. */
export function maskApiKeys(text: string): string {
  return text.includes('pk_')
    ? text.replace(API_KEY_LIKE, (key) => `${key.slice(0, SHOWN)}…[redacted]`)
    : text;
}

function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskApiKeys(value);
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [maskApiKeys(name), maskDeep(item, depth + 1)]),
  );
}

/** pino-http `req` serializer: the standard fields, with key-shaped text masked everywhere. */
export function redactRequest<T extends object>(req: T): T {
  return maskDeep(req) as T;
}
