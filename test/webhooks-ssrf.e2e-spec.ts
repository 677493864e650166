import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookUrlError } from '../src/webhooks/address-policy.js';
import { WebhookClock } from '../src/webhooks/webhook-clock.js';
import { WebhookRepository } from '../src/webhooks/webhook.repository.js';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { DrivenWebhookClock } from './support/driven-webhook-clock.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

// http is allowed (the receiver is local), private addresses are not, loopback ones neither (as
// outside development).
describe('webhooks never reach private addresses without the allowance (e2e)', () => {
  let t: TestApp;
  let key: string;
  let service: WebhooksService;
  let repository: WebhookRepository;
  let clock: DrivenWebhookClock;
  let receiver: WebhookReceiver;
  let endpointId: number | undefined;

  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_LOOPBACK: 'false',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LEASE_MS: '1500',
    });
    key = await t.createKey();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
    service = t.app.get(WebhooksService);
    repository = t.app.get(WebhookRepository);
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

  it.each([
    ['an IPv4 loopback literal', (port: number) => `http://127.0.0.1:${port}/hook`],
    ['a name resolving to loopback', (port: number) => `http://localhost:${port}/hook`],
    ['an IPv4-mapped IPv6 literal', (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv6 unique-local literal', () => 'http://[fd00:ec2::254]/'],
  ])('should refuse to add %s', async (_, url) => {
    await expect(service.add(url(receiver.port))).rejects.toBeInstanceOf(WebhookUrlError);
  });

  it('should let the loopback allowance reach this machine but no private or metadata address', async () => {
    const local = await createTestApp({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    try {
      const webhooks = local.app.get(WebhooksService);
      const added = await webhooks.add(`http://localhost:${receiver.port}/hook`);
      await webhooks.remove(added.endpoint.id);
      await expect(webhooks.add('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(
        /WEBHOOK_ALLOW_PRIVATE/,
      );
      await expect(webhooks.add('http://10.1.2.3/hook')).rejects.toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    } finally {
      await local.close();
    }
  });

  it('should refuse http without WEBHOOK_ALLOW_HTTP', async () => {
    const strict = await createTestApp();
    try {
      await expect(
        strict.app.get(WebhooksService).add('http://93.184.215.14/hook'),
      ).rejects.toThrow(/https/);
    } finally {
      await strict.close();
    }
  });

  // An endpoint stored while its name resolved elsewhere (DNS rebinding): each connection checks
  // the address it connects to.
  it.each([
    ['a name that now resolves to loopback', (port: number) => `http://localhost:${port}/hook`],
    ['a loopback literal', (port: number) => `http://127.0.0.1:${port}/hook`],
  ])('should refuse to connect to %s at delivery time', async (_, url) => {
    const endpoint = await repository.insert({
      url: url(receiver.port),
      description: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      cursor: await repository.feedHead(),
      now: clock.time,
    });
    endpointId = endpoint.id;
    await request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity: Math.floor(Math.random() * 1000) + 10 })
      .expect(200);
    const wait = await clock.nextWait();
    const [attempt] = await service.deliveries(endpoint.id, 1);
    expect(attempt).toMatchObject({ attempt: 1, status: null });
    expect(attempt.error).toMatch(/^blocked address: .*WEBHOOK_ALLOW_LOOPBACK=true/);
    expect(receiver.messages).toHaveLength(0);
    await service.remove(endpoint.id);
    endpointId = undefined;
    wait.release();
  });
});
