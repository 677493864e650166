import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type autocannon from 'autocannon';
import pg from 'pg';
import {
  makeCatalog,
  prepareAt,
  prepareDatabase,
  serviceEnv,
  writeCatalog,
} from '../lib/fixtures.js';
import { type LoadResult, runLoad } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { createDatabase, dropDatabase, postgresReachable } from '../lib/postgres.js';
import { fmt, markdownTable } from '../lib/report.js';
import type { Target, TargetSpec } from '../lib/servers.js';
import { median } from '../lib/stats.js';

/** What the runner lends a scenario. */
export interface ScenarioContext {
  options: BenchOptions;
  work: string;
  service: string;
  start(spec: TargetSpec): Promise<Target>;
  stop(...targets: Target[]): Promise<void>;
  check(name: string, value: string, goal: string, met: boolean): void;
  tables: string[];
  report: Record<string, unknown>;
  log(line: string): void;
}

const LINES = 100;
/** Batches timed per round, so that one slow commit (a checkpoint) does not make the figure. */
const BATCHES = 10;
const HOT_STOCK = 2_000_000_000;

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
/** Concurrent adjustments of one burst, and every how many one is poisoned. */
const BURST = 200;
const POISON_EVERY = 20;
const burstAgent = new Agent({ keepAlive: true, maxSockets: BURST });

function send(
  target: Target,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
  agent = keepAlive,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${target.url}${path}`,
      {
        method,
        agent,
        headers: { ...target.headers, 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expectOk(answer: ReturnType<typeof send>): Promise<void> {
  const { status, text } = await answer;
  if (status !== 200) throw new Error(`answered ${status}: ${text}`);
}

/** Lines per second of one client: 100 PATCHes one after another, against batches of 100 lines. */
async function batchVsPatches(
  target: Target,
  petIds: number[],
  options: BenchOptions,
): Promise<{ patch: number[]; batch: number[] }> {
  const patches = async (quantity: number) => {
    for (let i = 0; i < LINES; i++) {
      const petId = petIds[i % petIds.length];
      await expectOk(send(target, 'PATCH', `/v1/inventory/${petId}`, `{"quantity":${quantity}}`));
    }
  };
  const changes = Array.from({ length: LINES }, (_, i) => ({
    petId: petIds[i % petIds.length],
    delta: 1,
  }));
  const batches = async (count: number) => {
    for (let i = 0; i < count; i++)
      await expectOk(
        send(target, 'POST', '/v1/inventory/batch', JSON.stringify({ changes }), {
          'idempotency-key': randomUUID(),
        }),
      );
  };
  // Both paths warm, as every other scenario's targets do, so that no round times cold code.
  const warmUntil = Date.now() + options.warmup * 1000;
  for (let quantity = 10; Date.now() < warmUntil; quantity++) {
    await patches(quantity);
    await batches(BATCHES);
  }
  const patch: number[] = [];
  const batch: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    let started = process.hrtime.bigint();
    await patches(round);
    patch.push(LINES / (Number(process.hrtime.bigint() - started) / 1e9));
    started = process.hrtime.bigint();
    await batches(BATCHES);
    batch.push((BATCHES * LINES) / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  return { patch, batch };
}

function hotRequests(target: Target, hot: number, kind: 'adjust' | 'patch'): autocannon.Request[] {
  const headers = { ...target.headers, 'content-type': 'application/json' };
  if (kind === 'patch') {
    let n = 0;
    return [
      {
        method: 'PATCH',
        path: `/v1/inventory/${hot}`,
        headers,
        setupRequest: (req) => ({ ...req, body: `{"quantity":${HOT_STOCK - (++n % 1000)}}` }),
      },
    ];
  }
  return [
    {
      method: 'POST',
      path: `/v1/inventory/${hot}/adjustments`,
      body: '{"delta":-1,"reason":"sold"}',
      headers,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'idempotency-key': randomUUID() },
      }),
    },
  ];
}

async function quantityOf(target: Target, petId: number): Promise<number> {
  const { text } = await send(target, 'GET', `/v1/inventory/${petId}`, '');
  return (JSON.parse(text) as { quantity: number }).quantity;
}

/** The quantity once requests the load generator gave up on at its deadline have landed. */
async function settledQuantity(target: Target, petId: number): Promise<number> {
  let last = await quantityOf(target, petId);
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await quantityOf(target, petId);
    if (now === last) return now;
    last = now;
  }
  throw new Error('the hot pet did not settle');
}

async function feedCursor(target: Target): Promise<string> {
  return String((await send(target, 'GET', '/v1/inventory', '')).headers['x-changes-cursor']);
}

/** The sum of the pet's quantity changes recorded after `cursor`, and how many. */
async function recordedDeltas(
  target: Target,
  petId: number,
  cursor: string,
): Promise<{ sum: number; changes: number }> {
  let sum = 0;
  let changes = 0;
  let after = cursor;
  for (;;) {
    const page = await send(
      target,
      'GET',
      `/v1/inventory/${petId}/changes?after=${after}&limit=1000`,
      '',
    );
    const rows = JSON.parse(page.text) as { quantity: number; previousQuantity: number }[];
    if (rows.length === 0) return { sum, changes };
    for (const row of rows) sum += row.quantity - row.previousQuantity;
    changes += rows.length;
    after = /after=([^&>]+)/.exec(String(page.headers.link))![1];
  }
}

function count(runs: LoadResult[], ok: (status: number) => boolean): number {
  return runs.reduce(
    (sum, run) =>
      sum + Object.entries(run.statuses).reduce((n, [s, c]) => n + (ok(Number(s)) ? c : 0), 0),
    0,
  );
}

/** Adjustments of one hot pet from many connections, against PATCHes of it. */
async function hotPet(
  ctx: ScenarioContext,
  target: Target,
  hot: number,
  label: string,
): Promise<void> {
  const { options } = ctx;
  // Both paths warm alike, under the same load as their rounds.
  await expectOk(send(target, 'PATCH', `/v1/inventory/${hot}`, `{"quantity":${HOT_STOCK}}`));
  for (const kind of ['adjust', 'patch'] as const)
    await runLoad({
      url: target.url,
      connections: options.connections,
      duration: options.warmup,
      requests: hotRequests(target, hot, kind),
    });
  await settledQuantity(target, hot);
  await expectOk(send(target, 'PATCH', `/v1/inventory/${hot}`, `{"quantity":${HOT_STOCK}}`));
  const runs: Record<'adjust' | 'patch', LoadResult[]> = { adjust: [], patch: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const kind of round % 2 === 0
      ? (['adjust', 'patch'] as const)
      : (['patch', 'adjust'] as const)) {
      if (kind === 'adjust') {
        // Stragglers of the round before (cut off at its deadline) land first.
        const before = await settledQuantity(target, hot);
        const cursor = await feedCursor(target);
        const result = await runLoad(
          {
            url: target.url,
            connections: options.connections,
            duration: options.duration,
            requests: hotRequests(target, hot, kind),
          },
          () => target.cpuMicros(),
        );
        runs.adjust.push(result);
        const answered = count([result], (s) => s === 200);
        // Requests cut off at the deadline may still apply: the feed, not the answers, says how many.
        const after = await settledQuantity(target, hot);
        const { sum, changes } = await recordedDeltas(target, hot, cursor);
        ctx.check(
          `${label}: hot pet after ${changes} recorded adjustments (${answered} answered 200), round ${round + 1}`,
          String(after),
          `= ${before + sum}, and ${-sum} >= ${answered}`,
          after === before + sum && -sum >= answered && sum === -changes,
        );
        // Back to full stock for the PATCH round and the next.
        await expectOk(send(target, 'PATCH', `/v1/inventory/${hot}`, `{"quantity":${HOT_STOCK}}`));
      } else {
        runs.patch.push(
          await runLoad(
            {
              url: target.url,
              connections: options.connections,
              duration: options.duration,
              requests: hotRequests(target, hot, kind),
            },
            () => target.cpuMicros(),
          ),
        );
      }
      ctx.log(
        `  adjust ${label} round ${round + 1} ${kind.padEnd(6)} ${fmt.rps(runs[kind].at(-1)!.rps)} req/s ${JSON.stringify(runs[kind].at(-1)!.statuses)}`,
      );
    }
  }
  const adjustRps = median(runs.adjust.map((run) => run.rps));
  const patchRps = median(runs.patch.map((run) => run.rps));
  const ratio = median(runs.adjust.map((run, i) => run.rps / runs.patch[i].rps));
  const serverErrors =
    count(runs.adjust, (s) => s >= 500) + runs.adjust.reduce((n, run) => n + run.errors, 0);
  ctx.check(
    `${label}: hot pet adjustments, 5xx and errors`,
    String(serverErrors),
    '0',
    serverErrors === 0,
  );
  ctx.check(
    `${label}: hot pet adjustments vs PATCH throughput`,
    fmt.ratio(ratio),
    '>= 0.8x',
    ratio >= 0.8,
  );
  ctx.tables.push(
    `Hot pet, ${options.connections} connections (${label})\n\n` +
      markdownTable(
        ['operation', 'req/s', 'p99'],
        [
          [
            'POST adjustments (delta -1)',
            fmt.rps(adjustRps),
            fmt.ms(median(runs.adjust.map((r) => r.p99Ms))),
          ],
          ['PATCH', fmt.rps(patchRps), fmt.ms(median(runs.patch.map((r) => r.p99Ms)))],
        ],
      ),
  );
  ctx.report[`adjustHotPet ${label}`] = { adjustRps, patchRps, ratio, serverErrors };
}

async function measure(
  ctx: ScenarioContext,
  label: string,
  databaseUrl: string,
  apiKey: string,
  hot: number,
  petIds: number[],
): Promise<void> {
  const target = await ctx.start({
    name: `service (${label})`,
    script: ctx.service,
    env: serviceEnv(databaseUrl),
    readyPath: '/health',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  try {
    const { patch, batch } = await batchVsPatches(target, petIds, ctx.options);
    const ratio = median(batch.map((lines, i) => lines / patch[i]));
    ctx.check(
      `${label}: a batch of ${LINES} lines vs ${LINES} PATCHes, lines/s`,
      fmt.ratio(ratio),
      '>= 20x',
      ratio >= 20,
    );
    ctx.tables.push(
      `Lines per second of one client (${label})\n\n` +
        markdownTable(
          ['how', 'lines/s'],
          [
            [`${LINES} PATCHes, one after another`, fmt.rps(median(patch))],
            [`batches of ${LINES} lines, one after another`, fmt.rps(median(batch))],
          ],
        ),
    );
    ctx.report[`adjustBatch ${label}`] = {
      patchLinesPerSecond: median(patch),
      batchLinesPerSecond: median(batch),
      ratio,
    };
    await hotPet(ctx, target, hot, label);
  } finally {
    await ctx.stop(target);
  }
}

/**
 * 200 concurrent adjustments, every 20th failing in the database (a CHECK the bench adds refuses
 * its reference): the time of a burst against a clean burst's, alternated round by round. A
 * group isolates the failing call and commits the others; it must not fall back to one by one.
 */
async function poisonedBursts(
  ctx: ScenarioContext,
  databaseUrl: string,
  apiKey: string,
  petIds: number[],
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `ALTER TABLE inventory_changes ADD CONSTRAINT bench_poison CHECK (reference IS DISTINCT FROM 'poison')`,
    );
  } finally {
    await db.end();
  }
  const target = await ctx.start({
    name: 'service (PostgreSQL, bursts)',
    script: ctx.service,
    env: serviceEnv(databaseUrl),
    readyPath: '/health',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  try {
    type Poison = 'none' | 'body' | 'database';
    // A body the service refuses (a NUL in reference, as an attack sent) never joins a group; a
    // failure in the database (the CHECK) does, and the group isolates it.
    const POISONS: Record<Exclude<Poison, 'none'>, { reference: string; status: number }> = {
      body: { reference: 'po\u00001', status: 400 },
      database: { reference: 'poison', status: 500 },
    };
    const burst = async (poison: Poison): Promise<number> => {
      const started = process.hrtime.bigint();
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) => {
          const bad = poison !== 'none' && i % POISON_EVERY === POISON_EVERY - 1;
          const body = JSON.stringify({
            delta: 1,
            ...(bad ? { reference: POISONS[poison as Exclude<Poison, 'none'>].reference } : {}),
          });
          const petId = petIds[i % petIds.length];
          return send(
            target,
            'POST',
            `/v1/inventory/${petId}/adjustments`,
            body,
            { 'idempotency-key': randomUUID() },
            burstAgent,
          );
        }),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const expected = poison === 'none' ? BURST : BURST - BURST / POISON_EVERY;
      const ok = answers.filter((answer) => answer.status === 200).length;
      if (ok !== expected) throw new Error(`a burst answered ${ok} of ${expected} with 200`);
      return seconds;
    };
    const warmUntil = Date.now() + ctx.options.warmup * 1000;
    while (Date.now() < warmUntil) await burst('database');
    const times: Record<Poison, number[]> = { none: [], body: [], database: [] };
    const kinds = ['none', 'body', 'database'] as const;
    // The order rotates, so that no kind always follows the same other (a burst leaves work behind).
    for (let round = 0; round < ctx.options.rounds; round++)
      for (let i = 0; i < 6; i++)
        for (let k = 0; k < kinds.length; k++) {
          const poison = kinds[(i + k) % kinds.length];
          times[poison].push(await burst(poison));
        }
    const ratio = (poison: Poison) =>
      median(times[poison].map((seconds, i) => seconds / times.none[i]));
    ctx.check(
      `PostgreSQL: ${BURST} concurrent adjustments, every ${POISON_EVERY}th with a NUL in reference, time vs a clean burst`,
      fmt.ratio(ratio('body')),
      '<= 1.2x',
      ratio('body') <= 1.2,
    );
    ctx.check(
      `PostgreSQL: ${BURST} concurrent adjustments, every ${POISON_EVERY}th failing in the database, time vs a clean burst`,
      fmt.ratio(ratio('database')),
      '<= 1.2x',
      ratio('database') <= 1.2,
    );
    ctx.tables.push(
      `Bursts of ${BURST} concurrent adjustments (PostgreSQL)\n\n` +
        markdownTable(
          ['burst', 'median time', 'vs clean'],
          [
            ['clean', `${(median(times.none) * 1000).toFixed(0)} ms`, ''],
            [
              `every ${POISON_EVERY}th with a NUL in reference (400)`,
              `${(median(times.body) * 1000).toFixed(0)} ms`,
              fmt.ratio(ratio('body')),
            ],
            [
              `every ${POISON_EVERY}th failing in the database`,
              `${(median(times.database) * 1000).toFixed(0)} ms`,
              fmt.ratio(ratio('database')),
            ],
          ],
        ),
    );
    ctx.report['adjustPoisonedBurst PostgreSQL'] = {
      cleanSeconds: median(times.none),
      bodySeconds: median(times.body),
      databaseSeconds: median(times.database),
      bodyRatio: ratio('body'),
      databaseRatio: ratio('database'),
    };
  } finally {
    await ctx.stop(target);
  }
}

/**
 * Adjustments and batches: lines/s of a batch against single PATCHes, and a hot pet adjusted from
 * many connections; with `only: 'bursts'`, the poisoned bursts on PostgreSQL alone.
 */
export async function adjustScenario(ctx: ScenarioContext, only?: 'bursts'): Promise<void> {
  const rows = makeCatalog(ctx.options.items);
  const catalog = writeCatalog(ctx.work, rows);
  const [hot, ...others] = rows.map((row) => row.petId);
  const petIds = others.slice(0, LINES);
  if (!only) {
    const sqlite = prepareDatabase(ctx.work, 'adjust', catalog);
    await measure(ctx, 'SQLite', sqlite.databaseUrl, sqlite.apiKey, hot, petIds);
  }
  if (!(await postgresReachable(ctx.options.postgresUrl))) {
    ctx.log('adjust: PostgreSQL unreachable, measured on SQLite only');
    return;
  }
  const name = `petstore_bench_adjust_${process.pid}`;
  const url = await createDatabase(ctx.options.postgresUrl, name);
  try {
    const postgres = prepareAt(url, catalog);
    if (!only) await measure(ctx, 'PostgreSQL', postgres.databaseUrl, postgres.apiKey, hot, petIds);
    await poisonedBursts(ctx, postgres.databaseUrl, postgres.apiKey, petIds);
  } finally {
    await dropDatabase(ctx.options.postgresUrl, name);
  }
}
