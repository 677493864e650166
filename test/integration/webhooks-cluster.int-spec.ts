import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  createKeyWithCli,
  importInventory,
  type Instance,
  runCli,
  send,
  spawnInstance,
  spawnReady,
  stopAll,
  stopInstance,
  waitReady,
} from './support/cluster.js';
import {
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';
import { connect } from './support/postgres.js';

const context = requireIntegrationContext();
const PETS = ['1', '2', '3', '9007199254740993'];
const KILLS = 3;

describe('webhooks from two instances on PostgreSQL while the deliverer is killed (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const instances: Instance[] = [];
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    database = await migratedDatabase(context, 'webhooks');
    env = {
      APP_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_LEASE_MS: '2000',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
    };
    instances.push(...(await spawnReady(database.name, ['a', 'b'], env)));
    await importInventory(
      env,
      `[${PETS.map((id) => `{"petId":${id},"quantity":1,"status":"available"}`).join(',')}]`,
    );
    await receiver.start();
  }, 120_000);

  afterAll(async () => {
    await stopAll(instances, 'SIGKILL');
    await receiver.stop();
    await database?.drop();
  });

  /** The instance whose process holds the endpoint's lease (its owner names the pid). */
  async function deliverer(): Promise<Instance | undefined> {
    const client = await connect(database.url);
    try {
      const { rows } = await client.query<{ owner: string | null }>(
        'SELECT lease_owner AS owner FROM webhook_endpoints',
      );
      const pid = Number(rows[0]?.owner?.split(':')[1]);
      return instances.find(
        (instance) =>
          instance.child.pid === pid &&
          instance.child.exitCode === null &&
          instance.child.signalCode === null,
      );
    } finally {
      await client.end();
    }
  }

  it('should deliver every change once or more, in feed order, with stable webhook-ids', async () => {
    const { key } = await createKeyWithCli(env, [
      '--plan',
      'enterprise',
      '--per-minute',
      '1000000',
      '--per-day',
      '100000000',
    ]);
    const added = await runCli(['webhooks', 'add', receiver.url, '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const { secret, cursor: start, id: endpointId } = JSON.parse(added.stdout);

    let writing = true;
    let quantity = 2;
    const writer = async (n: number) => {
      while (writing) {
        const alive = instances.filter(
          (i) => i.child.exitCode === null && i.child.signalCode === null,
        );
        const target = alive[(quantity + n) % alive.length];
        const petId = PETS[(quantity + n) % PETS.length];
        await send(target, 'PATCH', `/v1/inventory/${petId}`, {
          key,
          body: { quantity: quantity++ },
          timeoutMs: 5000,
        }).catch(() => undefined);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);

    for (let kill = 0; kill < KILLS; kill++) {
      const seen = receiver.messages.length;
      await receiver.waitFor(seen + 100, 60_000);
      const victim = await deliverer();
      expect(victim, 'one live instance holds the lease').toBeDefined();
      await stopInstance(victim!, 'SIGKILL');
      const replacement = await spawnInstance(`${victim!.name}r`, env);
      instances[instances.indexOf(victim!)] = replacement;
      await waitReady(replacement);
    }
    await receiver.waitFor(receiver.messages.length + 100, 60_000);
    writing = false;
    await Promise.all(writers);

    const live = instances.find((i) => i.child.exitCode === null)!;
    const feed: string[] = [];
    for (let after = start as string; ;) {
      const reply = await send(live, 'GET', `/v1/inventory/changes?after=${after}&limit=1000`, {
        key,
      });
      expect(reply.status).toBe(200);
      const ids = [...reply.text.matchAll(/\{"id":(\d+),/g)].map((match) => match[1]);
      if (ids.length === 0) break;
      feed.push(...ids);
      after = /after=([A-Za-z0-9_-]+)/.exec(String(reply.headers.link))![1];
    }
    expect(feed.length).toBeGreaterThan(300);

    const wanted = new Set(feed);
    await receiver.waitUntil(
      () => new Set(receiver.changeIds().filter((id) => wanted.has(id))).size === wanted.size,
      60_000,
      `all ${wanted.size} changes`,
    );
    const firstSeen: string[] = [];
    const bodies = new Map<string, string>();
    for (const message of receiver.messages) {
      const webhookId = String(message.headers['webhook-id']);
      const changeId = /"data":\{"id":(\d+)/.exec(message.body)![1];
      expect(webhookId).toBe(`msg_${endpointId}_${changeId}`);
      const known = bodies.get(webhookId);
      if (known === undefined) {
        bodies.set(webhookId, message.body);
        firstSeen.push(changeId);
      } else expect(message.body).toBe(known);
    }
    expect(firstSeen.slice(0, feed.length)).toEqual(feed);
    const verifier = new Webhook(secret);
    for (const message of receiver.messages.slice(0, 50))
      expect(
        verifier.verify(message.body, {
          'webhook-id': String(message.headers['webhook-id']),
          'webhook-timestamp': String(message.headers['webhook-timestamp']),
          'webhook-signature': String(message.headers['webhook-signature']),
        }),
      ).toBeTruthy();
  }, 300_000);
});
