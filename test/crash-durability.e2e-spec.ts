import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../bench/lib/fixtures.js';
import { startServer, type RunningServer } from './support/built-server.js';
import { sqliteDeployment } from './support/sqlite-deployment.js';

/*
 * Kills the server with SIGKILL while PATCHes stream in, restarts it on the same SQLite file and
 * checks that every acknowledged write survived. Each pet is written by one worker, one request
 * at a time, so per pet there is a last acknowledged write and at most one write in flight when
 * the process dies. That one may or may not have committed: the stored value must be the last
 * acknowledged one or, only if it committed, the in-flight one. Nothing else is allowed.
 */

const CYCLES = 3;
const WORKERS = 6;
const PETS = Array.from({ length: 18 }, (_, i) =>
  i < 9 ? 1000n + BigInt(i) : 9007199254740993n + BigInt(i),
);
/** Acknowledged writes to wait for before the kill can come, so every cycle tests something. */
const MIN_ACKED_BEFORE_KILL = 25;

interface Write {
  petId: bigint;
  quantity: number;
  acked: boolean;
}

// better-sqlite3 ships no type declarations; this is the little of it used here.
const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options: { readonly: boolean },
) => { pragma(sql: string, options: { simple: true }): unknown; close(): void };

async function stock(
  server: RunningServer,
  key: string,
): Promise<Map<bigint, { quantity: number; status: string }>> {
  const res = await fetch(`${server.url}/v1/inventory`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const items = [
    ...text.matchAll(/\{"petId":(\d+),"quantity":(\d+),"status":"(\w+)","available":\d+\}/g),
  ];
  return new Map(
    items.map(([, id, quantity, status]) => [BigInt(id), { quantity: Number(quantity), status }]),
  );
}

describe('crash durability (e2e, built server)', () => {
  const deployment = sqliteDeployment(
    'crash',
    `[${PETS.map((id) => `{"petId":${id},"quantity":1,"status":"available","name":"Pet ${id}"}`).join(',')}]`,
  );
  const { database, env } = deployment;

  it('should keep every acknowledged write across repeated SIGKILLs', async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    // Seeded per run (and printed on failure) so a failing interleaving can be retried.
    const rand = mulberry32(seed);
    const where = (detail: string) => `${detail} (seed ${seed}; rerun with CRASH_SEED=${seed})`;
    let stored = new Map(PETS.map((id) => [id, 1]));
    let next = 1;

    let server = await startServer(env);
    try {
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const writes: Write[] = [];
        let dead = false;
        let acked = 0;
        const worker = async (w: number) => {
          const mine = PETS.filter((_, i) => i % WORKERS === w);
          while (!dead) {
            const write: Write = {
              petId: mine[Math.floor(rand() * mine.length)],
              quantity: ++next,
              acked: false,
            };
            writes.push(write);
            try {
              const res = await fetch(`${server.url}/v1/inventory/${write.petId}`, {
                method: 'PATCH',
                headers: {
                  Authorization: `Bearer ${deployment.key}`,
                  'Content-Type': 'application/json',
                },
                body: JSON.stringify({ quantity: write.quantity }),
              });
              const body = await res.text();
              if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${body}`);
              expect(body).toBe(
                `{"petId":${write.petId},"quantity":${write.quantity},"status":"available","available":${write.quantity}}`,
              );
              write.acked = true;
              acked++;
            } catch (err) {
              if (!dead) throw err;
            }
          }
        };
        const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
        const killed = (async () => {
          // Bounded: if the workers fail, Promise.all below reports why and this gives up.
          for (
            const deadline = Date.now() + 20_000;
            acked < MIN_ACKED_BEFORE_KILL && Date.now() < deadline;
          )
            await new Promise((resolve) => setTimeout(resolve, 5));
          await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 400)));
          dead = true;
          server.child.kill('SIGKILL');
          await server.exited;
        })();
        await Promise.all([...workers, killed]);

        // What each pet may hold now: its last acknowledged value, or the one write still in flight.
        const allowed = new Map<bigint, number[]>();
        for (const id of PETS) {
          const mine = writes.filter((write) => write.petId === id);
          const lastAcked = mine.findLastIndex((write) => write.acked);
          const inFlight = mine.slice(lastAcked + 1).map((write) => write.quantity);
          expect(
            inFlight.length,
            where(`pet ${id} had more than one write in flight`),
          ).toBeLessThanOrEqual(1);
          allowed.set(id, [
            lastAcked >= 0 ? mine[lastAcked].quantity : stored.get(id)!,
            ...inFlight,
          ]);
        }

        server = await startServer(env);
        const after = await stock(server, deployment.key);
        expect(after.size).toBe(PETS.length);
        for (const id of PETS) {
          const item = after.get(id)!;
          expect(
            allowed.get(id),
            where(`cycle ${cycle}: pet ${id} holds ${item.quantity}`),
          ).toContain(item.quantity);
          expect(item.status).toBe('available');
        }
        stored = new Map([...after].map(([id, item]) => [id, item.quantity]));
        expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      }
    } finally {
      await server.stop();
    }

    const db = new Database(database, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  }, 90_000);
});
