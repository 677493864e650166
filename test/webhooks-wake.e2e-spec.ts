import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, it, vi } from 'vitest';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { WebhookRepository } from '../src/webhooks/webhook.repository.js';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '1000',
  WEBHOOK_LEASE_MS: '1500',
  WEBHOOK_TIMEOUT_MS: '2000',
};

describe('webhooks woken by a commit on the same instance (e2e)', () => {
  let t: TestApp;
  let key: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await createTestApp(ENV);
    key = await t.createKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 });
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
    await receiver.start();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('should deliver a change committed here at once, not at the next poll', async () => {
    // Timers stand still: a poll that waited for its timer would never end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const repository = t.app.get(WebhookRepository);
    const read = repository.changesAfter.bind(repository);
    const polling = new Promise<void>((resolve) => {
      vi.spyOn(repository, 'changesAfter').mockImplementation(async (cursor, limit) => {
        const rows = await read(cursor, limit);
        if (rows.length === 0) resolve();
        return rows;
      });
    });
    await t.app.get(WebhooksService).add(receiver.url, 'test');
    await t.app.get(WebhookDispatcher).scan();
    await polling;

    await request(t.server)
      .post('/v1/inventory/1/adjustments')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', 'wake-1')
      .send({ delta: 2 })
      .expect(200);
    await receiver.waitFor(1);
  });
});
