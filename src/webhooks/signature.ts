import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const keys = new Map<string, Buffer>();

// Decoded once per secret: every message is signed, and a deliverer sends hundreds a second.
function secretKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= 1000) keys.clear();
    key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
    keys.set(secret, key);
  }
  return key;
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` per secret. */
export function signatureHeader(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map(
      (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`,
    )
    .join(' ');
}

/** Stable across every attempt and replay of one change at one endpoint, so receivers can dedupe. */
export function messageId(endpointId: number, changeId: string): string {
  return `msg_${endpointId}_${changeId}`;
}
