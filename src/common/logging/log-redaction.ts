import type { IncomingHttpHeaders } from 'node:http';

// Clients misplace keys in URLs, query strings and other headers: any 32+ base62 run is masked.
const KEY_LIKE = /[0-9A-Za-z]{32,}/g;
const ONE_KEY_LIKE = /[0-9A-Za-z]{32,}/;
const SHOWN = 4;
const ENCODED_KEY_CHAR = /%(?:3[0-9]|[46][1-9a-f]|[57][0-9a]|5f)/gi;
export const MAX_LOGGED_CHARS = 2048;

function decodeKeyChars(text: string): string {
  return text.includes('%')
    ? text.replace(ENCODED_KEY_CHAR, (code) => String.fromCharCode(parseInt(code.slice(1), 16)))
    : text;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

export function looksLikeApiKey(text: string): boolean {
  return ONE_KEY_LIKE.test(decodeKeyChars(text));
}

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

/** Never its other members: a failed statement's parameters carry client text whole. */
export function loggableError(err: unknown): Record<string, string> {
  if (!(err instanceof Error)) return { message: maskApiKeys(String(err)) };
  const shown: Record<string, string> = { type: err.name, message: maskApiKeys(err.message) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') shown.code = String(code);
  if (err.stack) shown.stack = maskApiKeys(err.stack);
  return shown;
}
