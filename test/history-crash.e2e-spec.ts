import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { startServer } from './support/built-server.js';
import { sqliteDeployment } from './support/sqlite-deployment.js';

/*
 * Kills the server with SIGKILL while PATCHes stream in, then reads the SQLite file: every
 * acknowledged change has its history record, and each pet's stock is exactly where its
 * recorded changes lead (no change without its record, no record without its change).
 */

const CYCLES = 2;
const WORKERS = 4;
const PETS = Array.from({ length: 12 }, (_, i) => 2000 + i);
const MIN_ACKED_BEFORE_KILL = 30;

const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options: { readonly: boolean },
) => { prepare(sql: string): { all(): unknown[] }; close(): void };

interface Row {
  petId: number;
  previousQuantity: number | null;
  quantity: number;
  reference: string | null;
}

describe('stock history across crashes (e2e, built server)', () => {
  const deployment = sqliteDeployment(
    'history-crash',
    JSON.stringify(PETS.map((petId) => ({ petId, quantity: 1, status: 'available' }))),
  );
  const { database, env } = deployment;

  it('should never keep an acknowledged change without its record, nor a record without its change', async () => {
    const acknowledged: string[] = [];
    let next = 1;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const running = await startServer(env);
      let dead = false;
      const worker = async (w: number) => {
        const mine = PETS.filter((_, i) => i % WORKERS === w);
        while (!dead) {
          const quantity = ++next;
          const reference = `write-${quantity}`;
          try {
            const res = await fetch(`${running.url}/v1/inventory/${mine[quantity % mine.length]}`, {
              method: 'PATCH',
              headers: {
                Authorization: `Bearer ${deployment.key}`,
                'Content-Type': 'application/json',
              },
              body: JSON.stringify({ quantity, reason: 'correction', reference }),
            });
            const body = await res.text();
            if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${body}`);
            acknowledged.push(reference);
          } catch (err) {
            if (!dead) throw err;
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
      const target = acknowledged.length + MIN_ACKED_BEFORE_KILL;
      const killed = (async () => {
        for (
          const deadline = Date.now() + 20_000;
          acknowledged.length < target && Date.now() < deadline;
        )
          await new Promise((resolve) => setTimeout(resolve, 5));
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 200)));
        dead = true;
        running.child.kill('SIGKILL');
        await running.exited;
      })();
      await Promise.all([...workers, killed]);
    }
    // A clean start recovers the WAL of the last killed one.
    await (await startServer(env)).stop();

    const db = new Database(database, { readonly: true });
    try {
      const changes = db
        .prepare(
          `SELECT pet_id AS petId, previous_quantity AS previousQuantity, quantity, reference FROM inventory_changes ORDER BY id`,
        )
        .all() as Row[];
      const pets = db.prepare(`SELECT id, quantity FROM pets ORDER BY id`).all() as {
        id: number;
        quantity: number;
      }[];
      const recorded = new Set(changes.map((change) => change.reference));
      expect(acknowledged.length).toBeGreaterThanOrEqual(CYCLES * MIN_ACKED_BEFORE_KILL);
      expect(acknowledged.filter((reference) => !recorded.has(reference))).toEqual([]);
      const held = new Map<number, number | null>();
      for (const change of changes) {
        expect(change.previousQuantity).toBe(held.get(change.petId) ?? null);
        held.set(change.petId, change.quantity);
      }
      for (const pet of pets) expect(held.get(pet.id)).toBe(pet.quantity);
    } finally {
      db.close();
    }
  }, 120_000);
});
