import { cpuUsage, hrtime } from 'node:process';
import pg from 'pg';

/*
 * The database floor for a PATCH on PostgreSQL: node-postgres alone, with the service's pool size
 * and the bench's concurrency, applying each update in one round trip through a function that does
 * what a PATCH does (lock the pet and the counter, update, append the change): the service's former
 * `inventory_write` (migration InventoryHistory), created here in the bench's own database, as the
 * service no longer has it. Nothing else: no HTTP, no auth, no limiter, no batching.
 * Driven over IPC: {run: {seconds, petIds, seed}} -> {result: {...}}.
 */

const WRITE_SQL = `SELECT o_outcome AS outcome, o_pet_id AS "petId", o_quantity AS quantity, o_status AS status, o_version AS version
  FROM pg_floor_write($1, $2, $3, $4, $5, $6, $7, $8)`;

interface Run {
  seconds: number;
  connections: number;
  petIds: number[];
  seed: number;
}

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
});

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function run({ seconds, connections, petIds, seed }: Run) {
  const random = mulberry32(seed);
  const latencies: number[] = [];
  let errors = 0;
  const cpu = cpuUsage();
  const started = hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const worker = async () => {
    while (hrtime.bigint() < deadline) {
      const petId = petIds[Math.floor(random() * petIds.length)];
      const t = hrtime.bigint();
      try {
        await pool.query(WRITE_SQL, [
          String(petId),
          Math.floor(random() * 100),
          null,
          null,
          null,
          1,
          'pg-floor',
          new Date().toISOString(),
        ]);
        latencies.push(Number(hrtime.bigint() - t) / 1e6);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = Number(hrtime.bigint() - started) / 1e9;
  const used = cpuUsage(cpu);
  return {
    responses: latencies.length,
    elapsed,
    errors,
    latencies,
    cpuMicros: used.user + used.system,
  };
}

process.on('message', (message: { run?: Run; stop?: true }) => {
  if (message.run) void run(message.run).then((result) => process.send!({ result }));
  if (message.stop) void pool.end().then(() => process.exit(0));
});

// From the built service (dist/), beside this file's own build (dist/bench/baselines).
const { INVENTORY_WRITE_FUNCTION } = (await import(
  new URL('../../database/migrations/postgres/1795400000000-InventoryHistory.js', import.meta.url)
    .href
)) as { INVENTORY_WRITE_FUNCTION: string };
await pool.query(
  INVENTORY_WRITE_FUNCTION.replace(
    'CREATE FUNCTION "inventory_write"',
    'CREATE OR REPLACE FUNCTION "pg_floor_write"',
  ),
);

// Open every connection of the pool before the first run, as a running service has.
await Promise.all(
  Array.from({ length: Number(process.env.DB_POOL_SIZE ?? 10) }, () => pool.query('SELECT 1')),
);
process.send!({ ready: true });
