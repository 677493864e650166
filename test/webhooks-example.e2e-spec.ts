import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type InventoryChange } from '../examples/webhook-receiver.js';
import { WebhookSender } from '../src/webhooks/webhook-sender.js';
import { messageId, newSecret, signatureHeader } from '../src/webhooks/signature.js';

describe('examples/webhook-receiver.ts (e2e)', () => {
  const secret = newSecret();
  const received: InventoryChange[] = [];
  const server = createWebhookReceiver(secret, (change) => {
    received.push(change);
  });
  let sender: WebhookSender;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    sender = new WebhookSender(`http://127.0.0.1:${port}/`, {
      timeoutMs: 5000,
      allowHttp: true,
      allowPrivate: true,
    });
  });
  afterAll(async () => {
    sender.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const body =
    '{"type":"inventory.changed","timestamp":"2026-11-24T06:00:00.000Z","data":{"id":9007199254740993,' +
    '"petId":9223372036854775807,"previousQuantity":1,"quantity":2,"previousStatus":"available",' +
    '"status":"available","reason":null,"reference":null,"source":"api","keyId":3,"requestId":"r1",' +
    '"changedAt":"2026-11-24T06:00:00.000Z"}}';
  const deliver = (secrets: string[], payload = body) => {
    const id = messageId(1, '9007199254740993');
    const timestamp = Math.floor(Date.now() / 1000);
    return sender.send(payload, {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(id, timestamp, body, secrets),
    });
  };

  it('should accept a verified message once, keep int64 ids exact, and acknowledge a repeat without handling it', async () => {
    expect(await deliver([newSecret(), secret])).toMatchObject({
      outcome: 'delivered',
      status: 204,
    });
    expect(await deliver([secret])).toMatchObject({ outcome: 'delivered', status: 204 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      id: 9007199254740993n,
      petId: 9223372036854775807n,
      quantity: 2,
    });
  });

  it('should refuse a message signed with another secret or altered on the way', async () => {
    expect(await deliver([newSecret()])).toMatchObject({ outcome: 'http_error', status: 400 });
    expect(await deliver([secret], body.replace('"quantity":2', '"quantity":9'))).toMatchObject({
      status: 400,
    });
    expect(received).toHaveLength(1);
  });
});
