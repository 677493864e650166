import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { messageId, newSecret, signatureHeader } from './signature.js';

describe('signatureHeader', () => {
  it('should make secrets of 32 random bytes with the whsec_ prefix', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });

  it('should be verified by the standardwebhooks package under each live secret', () => {
    const [current, previous, other] = [newSecret(), newSecret(), newSecret()];
    const id = messageId(3, '9007199254740993');
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"type":"inventory.changed","data":{"id":9007199254740993}}';
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(id, timestamp, body, [current, previous]),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toMatchObject({ type: 'inventory.changed' });
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('should match the package signature exactly', () => {
    const secret = newSecret();
    const at = new Date(1_800_000_000_000);
    expect(signatureHeader('msg_1_2', 1_800_000_000, 'x', [secret])).toBe(
      new Webhook(secret).sign('msg_1_2', at, 'x'),
    );
  });
});
