import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importInventory,
  type Instance,
  send,
  sharedRedisEnv,
  spawnReady,
  stopAll,
  unlimitedKey,
} from './support/cluster.js';
import { emptyDatabase, requireIntegrationContext, type TestDatabase } from './support/context.js';

const context = requireIntegrationContext();

const PETS = 40;
const WRITERS = 6;
const WRITES_EACH = 60;

interface Item {
  petId: number;
  quantity: number;
  status: string;
  available?: number;
}
interface Change extends Item {
  id: number;
  previousQuantity: number | null;
  previousStatus: string | null;
  source: string;
}

const NEXT = /^<\/v1\/inventory\/changes\?after=([A-Za-z0-9_-]+)&limit=\d+>; rel="next"$/;

/**
 * A client keeping a copy of the inventory: a listing, then the feed from its cursor. Every
 * change must continue the state it holds for that pet (nothing missed, nothing repeated).
 */
class Follower {
  readonly state = new Map<number, Item>();
  private cursor = '';
  private lastId = -1;
  applied = 0;

  constructor(
    private readonly instance: Instance,
    private readonly key: string,
    private readonly agent: http.Agent,
  ) {}

  async start(): Promise<void> {
    const listing = await send(this.instance, 'GET', '/v1/inventory', {
      key: this.key,
      agent: this.agent,
    });
    expect(listing.status).toBe(200);
    for (const item of listing.body as Item[]) this.state.set(item.petId, item);
    this.cursor = String(listing.headers['x-changes-cursor']);
  }

  /** Follows one page; returns how many changes it held. */
  async step(limit = 50): Promise<number> {
    const page = await send(
      this.instance,
      'GET',
      `/v1/inventory/changes?after=${this.cursor}&limit=${limit}`,
      { key: this.key, agent: this.agent },
    );
    expect(page.status, page.text).toBe(200);
    const next = NEXT.exec(String(page.headers.link));
    expect(next, String(page.headers.link)).not.toBeNull();
    for (const change of page.body as Change[]) {
      expect(change.id).toBeGreaterThan(this.lastId);
      this.lastId = change.id;
      const held = this.state.get(change.petId);
      expect(
        { quantity: change.previousQuantity, status: change.previousStatus },
        `change ${change.id} of pet ${change.petId} does not follow the state held`,
      ).toEqual(
        held ? { quantity: held.quantity, status: held.status } : { quantity: null, status: null },
      );
      // No holds here: every unit is available.
      this.state.set(change.petId, {
        petId: change.petId,
        quantity: change.quantity,
        status: change.status,
        available: change.quantity,
      });
      this.applied++;
    }
    this.cursor = next![1];
    return (page.body as Change[]).length;
  }

  items(): Item[] {
    return [...this.state.values()].sort((a, b) => a.petId - b.petId);
  }
}

describe('keeping a copy in sync by the change feed, three instances on one PostgreSQL (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: Instance[];
  let key: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  beforeAll(async () => {
    database = await emptyDatabase(context, 'sync');
    env = sharedRedisEnv(context, database, 'sync');
    instances = await spawnReady(database.name, ['a', 'b', 'c'], env);
    await importInventory(
      env,
      JSON.stringify(
        Array.from({ length: PETS }, (_, i) => ({
          petId: i + 1,
          quantity: 10,
          status: 'available',
        })),
      ),
    );
    ({ key } = await unlimitedKey(env));
  }, 120_000);

  afterAll(async () => {
    agent.destroy();
    await stopAll(instances);
    await database?.drop();
  });

  it('should reproduce the final listing exactly from a listing and the feed, while every instance commits concurrently', async () => {
    const early = new Follower(instances[0], key, agent);
    await early.start();
    let writing = true;
    let late: Follower | undefined;

    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < WRITES_EACH; i++) {
        const instance = instances[(w + i) % instances.length];
        const petId = 1 + ((w * 7 + i * 13) % PETS);
        const reply = await send(instance, 'PATCH', `/v1/inventory/${petId}`, {
          key,
          agent,
          body: { quantity: (w * 31 + i * 17) % 9, reason: 'correction' },
        });
        expect(reply.status, reply.text).toBe(200);
        // A second client starts in the middle of the writes, from another instance.
        if (w === 0 && i === WRITES_EACH / 2) {
          const follower = new Follower(instances[1], key, agent);
          await follower.start();
          late = follower;
        }
      }
    });
    const importing = importInventory(
      env,
      JSON.stringify(
        Array.from({ length: 10 }, (_, i) => ({
          petId: i % 2 === 0 ? i + 1 : PETS + i,
          quantity: 20 + i,
          status: 'pending',
        })),
      ),
    );
    const following = (async () => {
      while (writing) {
        await early.step();
        if (late) await late.step(7);
      }
    })();

    await Promise.all([...writers, importing]);
    writing = false;
    await following;
    // Drain: every change committed before the final listing.
    while ((await early.step(1000)) > 0);
    while (late && (await late.step(1000)) > 0);

    for (const instance of instances) {
      const final = await send(instance, 'GET', '/v1/inventory', { key, agent });
      expect(early.items()).toEqual(final.body);
      expect(late!.items()).toEqual(final.body);
    }
    expect(early.applied).toBeGreaterThanOrEqual(WRITERS * WRITES_EACH * 0.5);
  }, 180_000);

  it("should apply If-Match by the item's ETag and the status rule across instances on PostgreSQL", async () => {
    const item = await send(instances[2], 'GET', '/v1/inventory/3', { key, agent });
    const etag = String(item.headers.etag);
    const stale = await send(instances[0], 'PATCH', '/v1/inventory/3', {
      key,
      agent,
      body: { quantity: 0 },
      headers: { 'if-match': '"stale", W/' + etag },
    });
    expect(stale.status, stale.text).toBe(412);
    expect((stale.body as { details: { current: Item } }).details.current).toEqual(item.body);
    const applied = await send(instances[0], 'PATCH', '/v1/inventory/3', {
      key,
      agent,
      body: { quantity: 0 },
      headers: { 'if-match': `"stale", ${etag}` },
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toEqual({ petId: 3, quantity: 0, status: 'sold', available: 0 });
    const now = await send(instances[1], 'GET', '/v1/inventory/3', { key, agent });
    expect(applied.headers.etag).toBe(now.headers.etag);
    const again = await send(instances[1], 'PATCH', '/v1/inventory/3', {
      key,
      agent,
      body: { quantity: 4 },
      headers: { 'if-match': '*' },
    });
    expect(again.body).toEqual({ petId: 3, quantity: 4, status: 'available', available: 4 });
  });
});
