import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeCursor } from '../src/inventory/history/change-cursor.js';
import { MetricsService } from '../src/metrics/metrics.service.js';
import { WebhookClock } from '../src/webhooks/webhook-clock.js';
import { WebhookSender } from '../src/webhooks/webhook-sender.js';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { DrivenWebhookClock } from './support/driven-webhook-clock.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,2,3',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_LEASE_MS: '1500',
  WEBHOOK_TIMEOUT_MS: '2000',
};

describe('webhooks (e2e)', () => {
  let t: TestApp;
  let key: string;
  let service: WebhooksService;
  let clock: DrivenWebhookClock;
  let receiver: WebhookReceiver;
  let endpointId: number | undefined;
  let quantity = 1;

  beforeAll(async () => {
    t = await createTestApp(ENV);
    key = await t.createKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 });
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 9007199254740993n, name: 'Big', status: 'available', quantity: 5 },
    ]);
    service = t.app.get(WebhooksService);
    clock = new DrivenWebhookClock();
    clock.install(t.app.get(WebhookClock));
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterEach(async () => {
    if (endpointId !== undefined) await service.remove(endpointId);
    endpointId = undefined;
    await receiver.stop();
  });

  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${key}`);
  const patch = (petId: string) =>
    auth(request(t.server).patch(`/v1/inventory/${petId}`))
      .send({ quantity: quantity++ })
      .expect(200);
  const add = async (url = receiver.url) => {
    const added = await service.add(url, 'test');
    endpointId = added.endpoint.id;
    return added;
  };
  const feedText = async (after: bigint) =>
    (
      await auth(
        request(t.server).get(`/v1/inventory/changes?after=${encodeCursor(after)}`),
      ).expect(200)
    ).text;
  const verify = (secret: string, i: number) =>
    new Webhook(secret).verify(receiver.messages[i].body, {
      'webhook-id': String(receiver.messages[i].headers['webhook-id']),
      'webhook-timestamp': String(receiver.messages[i].headers['webhook-timestamp']),
      'webhook-signature': String(receiver.messages[i].headers['webhook-signature']),
    });

  it('should send each change committed after the endpoint was added, in order, signed, as the feed writes it', async () => {
    await patch('1');
    const { endpoint, secret } = await add();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await patch('1');
    await patch('9007199254740993');
    await patch('1');
    await receiver.waitFor(3);

    const feed = await feedText(endpoint.cursor);
    const data = receiver.messages.map((m) =>
      /^\{"type":"inventory\.changed","timestamp":"([^"]+)","data":(\{.*\})\}$/.exec(m.body),
    );
    expect(`[${data.map((match) => match?.[2]).join(',')}]`).toBe(feed);
    expect(receiver.messages[1].body).toContain('"petId":9007199254740993,');
    for (const [i, message] of receiver.messages.entries()) {
      expect(message.headers['content-type']).toBe('application/json');
      expect(message.headers['webhook-id']).toBe(`msg_${endpoint.id}_${receiver.changeIds()[i]}`);
      expect(message.headers['webhook-timestamp']).toBe(String(Math.floor(clock.time / 1000)));
      expect(JSON.parse(message.body).timestamp).toBe(JSON.parse(message.body).data.changedAt);
      expect(verify(secret, i)).toMatchObject({ type: 'inventory.changed' });
    }
    expect(receiver.changeIds().map(BigInt)).toEqual(
      [...receiver.changeIds()].map(BigInt).sort((a, b) => (a < b ? -1 : 1)),
    );
    const attempts = await service.deliveries(endpoint.id, 10);
    expect(attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
      [1, 200, null],
      [1, 200, null],
      [1, 200, null],
    ]);
    const metrics = await t.app.get(MetricsService).metrics();
    expect(metrics).toMatch(/petstore_webhook_deliveries_total\{outcome="delivered"\} [3-9]/);
    expect(metrics).toContain(`petstore_webhook_lag_seconds{endpoint="${endpoint.id}"}`);
  });

  it('should retry on the schedule while the receiver is down, then deliver everything in order', async () => {
    await receiver.stop();
    const { endpoint, secret } = await add();
    for (let i = 0; i < 5; i++) await patch(i % 2 ? '1' : '9007199254740993');

    const first = await clock.nextWait();
    expect(first.ms).toBe(1100);
    first.release();
    const second = await clock.nextWait();
    expect(second.ms).toBe(2200);
    // Readiness does not depend on a failing endpoint.
    await request(t.server).get('/health/ready').expect(200);
    const lag = new RegExp(
      `petstore_webhook_lag_seconds\\{endpoint="${endpoint.id}"\\} ([0-9.e-]+)`,
    );
    const waiting = Number(lag.exec(await t.app.get(MetricsService).metrics())?.[1]);
    expect(waiting).toBeGreaterThan(0);
    await receiver.start();
    second.release();
    await receiver.waitFor(5);

    const feed = JSON.parse(
      (await feedText(endpoint.cursor)).replace(/"(id|petId)":(\d+)/g, '"$1":"$2"'),
    );
    expect(receiver.changeIds()).toEqual(feed.map((change: { id: string }) => change.id));
    for (let i = 0; i < 5; i++) expect(verify(secret, i)).toBeTruthy();
    const attempts = (await service.deliveries(endpoint.id, 10)).reverse();
    expect(attempts.slice(0, 3).map((a) => [a.changeId, a.attempt, a.status, a.error])).toEqual([
      [feed[0].id, 1, null, 'ECONNREFUSED'],
      [feed[0].id, 2, null, 'ECONNREFUSED'],
      [feed[0].id, 3, 200, null],
    ]);
    expect((await service.get(endpoint.id)).failures).toBe(0);
  });

  it('should disable the endpoint when the schedule is exhausted, and resume at the same change once enabled', async () => {
    receiver.answer = () => ({ status: 500, body: 'x'.repeat(5000) });
    const { endpoint } = await add();
    await patch('1');
    for (const ms of [1100, 2200, 3300]) {
      const wait = await clock.nextWait();
      expect(wait.ms).toBe(ms);
      wait.release();
    }
    await vi.waitFor(async () =>
      expect((await service.get(endpoint.id)).disabledAt).not.toBeNull(),
    );
    expect(receiver.messages).toHaveLength(4);
    const stored = await service.get(endpoint.id);
    expect(stored.disabledReason).toMatch(/4 attempts failed/);
    const [last] = await service.deliveries(endpoint.id, 1);
    expect(last).toMatchObject({ attempt: 4, status: 500 });
    expect(last.error!.length).toBeLessThanOrEqual('HTTP 500: '.length + 1024);

    receiver.answer = () => ({ status: 204 });
    await patch('1');
    await service.enable(endpoint.id);
    await receiver.waitFor(6);
    const ids = receiver.changeIds();
    expect(ids[4]).toBe(ids[0]);
    expect(receiver.messages[4].headers['webhook-id']).toBe(
      receiver.messages[0].headers['webhook-id'],
    );
    expect(BigInt(ids[5])).toBeGreaterThan(BigInt(ids[4]));
  });

  it('should end a retry wait at once when the operator enables the endpoint', async () => {
    let calls = 0;
    receiver.answer = () => (calls++ === 0 ? { status: 500 } : { status: 200 });
    const { endpoint } = await add();
    await patch('1');
    const wait = await clock.nextWait();
    expect(wait.ms).toBe(1100);
    await service.enable(endpoint.id);
    await receiver.waitFor(2);
    expect(clock.waiting).toBe(0);
    expect(receiver.messages[1].headers['webhook-id']).toBe(
      receiver.messages[0].headers['webhook-id'],
    );
  });

  it('should disable at once on 410', async () => {
    receiver.answer = () => ({ status: 410 });
    const { endpoint } = await add();
    await patch('1');
    await vi.waitFor(async () =>
      expect((await service.get(endpoint.id)).disabledAt).not.toBeNull(),
    );
    expect((await service.get(endpoint.id)).disabledReason).toBe('the endpoint answered 410 Gone');
    expect(receiver.messages).toHaveLength(1);
    expect(clock.waiting).toBe(0);
  });

  it('should wait at least Retry-After on 429', async () => {
    let calls = 0;
    receiver.answer = () =>
      calls++ === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { status: 200 };
    await add();
    await patch('1');
    const wait = await clock.nextWait();
    expect(wait.ms).toBe(30_000);
    wait.release();
    await receiver.waitFor(2);
    expect(receiver.messages[1].headers['webhook-id']).toBe(
      receiver.messages[0].headers['webhook-id'],
    );
  });

  it('should not follow a redirect: it is a failed attempt', async () => {
    let calls = 0;
    receiver.answer = () =>
      calls++ === 0
        ? { status: 307, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } }
        : { status: 200 };
    const { endpoint } = await add();
    await patch('1');
    const wait = await clock.nextWait();
    expect(wait.ms).toBe(1100);
    expect(receiver.messages.map((m) => m.path)).toEqual(['/hook']);
    const [attempt] = await service.deliveries(endpoint.id, 1);
    expect(attempt).toMatchObject({ attempt: 1, status: 307, error: 'HTTP 307' });
    wait.release();
    await receiver.waitFor(2);
    expect(receiver.messages.map((m) => m.path)).toEqual(['/hook', '/hook']);
  });

  it('should sign with both secrets during a roll grace, and only the new one after it', async () => {
    const { endpoint, secret: first } = await add();
    await patch('1');
    await receiver.waitFor(1);
    const { secret: second } = await service.rollSecret(endpoint.id, 3_600_000);
    await patch('1');
    await receiver.waitFor(2);
    expect(String(receiver.messages[1].headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(first, 1)).toBeTruthy();
    expect(verify(second, 1)).toBeTruthy();

    const { secret: third } = await service.rollSecret(endpoint.id, 0);
    await patch('1');
    await receiver.waitFor(3);
    expect(String(receiver.messages[2].headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(third, 2)).toBeTruthy();
    expect(() => verify(second, 2)).toThrow();
  });

  it('should stop signing with a secret rolled with no grace at the very next message, within a batch', async () => {
    const { endpoint, secret: first } = await add();
    let rolled: Promise<{ secret: string }> | undefined;
    const send = WebhookSender.prototype.send;
    // The roll commits while the first of three changes read together is on its way.
    vi.spyOn(WebhookSender.prototype, 'send').mockImplementation(async function (
      this: WebhookSender,
      ...args
    ) {
      rolled ??= service.rollSecret(endpoint.id, 0);
      await rolled;
      return send.apply(this, args);
    });
    await auth(request(t.server).post('/v1/inventory/batch'))
      .set('Idempotency-Key', `roll-${quantity++}`)
      .send({ changes: [1, 2, 3].map(() => ({ petId: 1, delta: 1 })) })
      .expect(200);
    await receiver.waitFor(3);
    const { secret: second } = await rolled!;
    expect(verify(first, 0)).toBeTruthy();
    for (const i of [1, 2]) {
      expect(String(receiver.messages[i].headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verify(second, i)).toBeTruthy();
      expect(() => verify(first, i)).toThrow();
    }
  });

  it('should replay older changes with their webhook-id, then carry on', async () => {
    const { endpoint } = await add();
    await patch('1');
    await patch('1');
    await receiver.waitFor(2);
    await service.replay(endpoint.id, endpoint.cursor);
    await receiver.waitFor(4);
    await patch('1');
    await receiver.waitFor(5);
    const ids = receiver.messages.map((m) => m.headers['webhook-id']);
    expect(ids.slice(2, 4)).toEqual(ids.slice(0, 2));
    expect(receiver.messages[2].body).toBe(receiver.messages[0].body);
    expect(new Set(ids).size).toBe(3);
  });
});
