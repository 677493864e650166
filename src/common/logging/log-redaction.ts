import type { IncomingHttpHeaders } from 'node:http';

/**
 * Anything shaped like an API key: a key prefix and at least 16 base62 characters. Keys have 40,
 * display prefixes (`pk_test_AbCd`, safe to show) have 4. Keys are meant to travel only in
 * `Authorization` (redacted by name), but clients misplace them in URLs, query strings and other
 * headers, and whatever the client sent is what a request log records.
 */
const API_KEY_LIKE = /pk_(?:live|test)_[0-9A-Za-z]{16,}/g;
const ONE_API_KEY_LIKE = new RegExp(API_KEY_LIKE.source);
const SHOWN = 'pk_test_'.length + 4;

/** Headers that carry credentials: logged as `[redacted]` whatever they hold. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

export function looksLikeApiKey(text: string): boolean {
  return ONE_API_KEY_LIKE.test(text);
}

export function maskApiKeys(text: string): string {
  return text.includes('pk_')
    ? text.replace(API_KEY_LIKE, (key) => `${key.slice(0, SHOWN)}…[redacted]`)
    : text;
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const shown: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    shown[maskApiKeys(name)] = CREDENTIAL_HEADERS.has(name)
      ? '[redacted]'
      : Array.isArray(value)
        ? value.map(maskApiKeys)
        : maskApiKeys(value);
  }
  return shown;
}
