import type { IncomingHttpHeaders } from 'node:http';

/**
 * Anything that could be an API key's secret: a run of 32 or more base62 characters, in any
 * case, with or without a `pk_live_`/`pk_test_` prefix (keys have 40 after it). Keys are meant to
 * travel only in `Authorization` (redacted by name), but clients misplace them in URLs, query
 * strings and other headers, sometimes percent-encoded, and whatever the client sent is what a
 * request log records. A run is logged as its first four characters, as a display prefix is.
 */
const KEY_LIKE = /[0-9A-Za-z]{32,}/g;
const ONE_KEY_LIKE = /[0-9A-Za-z]{32,}/;
const SHOWN = 4;
/** Percent-encoded ASCII letters, digits and `_`: what a key encoded in a URL can contain. */
const ENCODED_KEY_CHAR = /%(?:3[0-9]|[46][1-9a-f]|[57][0-9a]|5f)/gi;
/** Client text a log line keeps, at most: longer is cut, so no one writes megabytes into the log. */
export const MAX_LOGGED_CHARS = 2048;

function decodeKeyChars(text: string): string {
  return text.includes('%')
    ? text.replace(ENCODED_KEY_CHAR, (code) => String.fromCharCode(parseInt(code.slice(1), 16)))
    : text;
}

/** Headers that carry credentials: logged as `[redacted]` whatever they hold. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

export function looksLikeApiKey(text: string): boolean {
  return ONE_KEY_LIKE.test(decodeKeyChars(text));
}

/**
 * Client text as a log may show it: percent-encoded key characters decoded, every key-shaped
 * run masked to its first four characters, then cut at MAX_LOGGED_CHARS.
 */
export function maskApiKeys(text: string): string {
  const decoded = decodeKeyChars(text);
  const masked = ONE_KEY_LIKE.test(decoded)
    ? decoded.replace(KEY_LIKE, (key) => `${key.slice(0, SHOWN)}…[redacted]`)
    : decoded;
  return masked.length > MAX_LOGGED_CHARS
    ? `${masked.slice(0, MAX_LOGGED_CHARS)}…[truncated]`
    : masked;
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
