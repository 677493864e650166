import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type autocannon from 'autocannon';
import {
  makeCatalog,
  prepareAt,
  prepareDatabase,
  serviceEnv,
  writeCatalog,
} from '../lib/fixtures.js';
import { type LoadResult, runLoad } from '../lib/load.js';
import { createDatabase, dropDatabase, postgresReachable } from '../lib/postgres.js';
import { fmt, markdownTable } from '../lib/report.js';
import type { Target } from '../lib/servers.js';
import { median } from '../lib/stats.js';
import type { ScenarioContext } from './adjust.js';

const PETS = 100;
const LISTED = 1_000;
const ACTIVE_HOLDS = 100;
const STOCK = 2_000_000_000;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function send(
  target: Target,
  method: string,
  path: string,
  body = '',
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expect(status: number, answer: ReturnType<typeof send>): Promise<string> {
  const res = await answer;
  if (res.status !== status) throw new Error(`answered ${res.status}: ${res.text}`);
  return res.text;
}

/** Requests that rotate over the pets: a one-unit hold (a fresh key each), or a PATCH. */
function requests(target: Target, petIds: number[], kind: 'hold' | 'patch'): autocannon.Request[] {
  const headers = { ...target.headers, 'content-type': 'application/json' };
  let n = 0;
  return [
    {
      method: kind === 'hold' ? 'POST' : 'PATCH',
      path: '/',
      headers,
      setupRequest: (req) => {
        const petId = petIds[++n % petIds.length];
        return kind === 'hold'
          ? {
              ...req,
              path: `/v1/inventory/${petId}/holds`,
              headers: { ...req.headers, 'idempotency-key': randomUUID() },
              body: '{"quantity":1,"expiresIn":60}',
            }
          : {
              ...req,
              path: `/v1/inventory/${petId}`,
              body: `{"quantity":${STOCK - (n % 1000)}}`,
            };
      },
    },
  ];
}

/** Server CPU per request of a hold against a PATCH of the same pets, alternated round by round. */
async function holdVsPatch(ctx: ScenarioContext, target: Target, petIds: number[], label: string) {
  const { options } = ctx;
  for (const petId of petIds)
    await expect(200, send(target, 'PATCH', `/v1/inventory/${petId}`, `{"quantity":${STOCK}}`));
  const load = (kind: 'hold' | 'patch', duration: number) =>
    runLoad(
      {
        url: target.url,
        connections: options.connections,
        duration,
        requests: requests(target, petIds, kind),
      },
      () => target.cpuMicros(),
    );
  await load('hold', options.warmup);
  await load('patch', options.warmup);
  const runs: Record<'hold' | 'patch', LoadResult[]> = { hold: [], patch: [] };
  for (let round = 0; round < options.rounds; round++)
    for (const kind of round % 2 === 0
      ? (['hold', 'patch'] as const)
      : (['patch', 'hold'] as const)) {
      runs[kind].push(await load(kind, options.duration));
      const run = runs[kind].at(-1)!;
      ctx.log(
        `  holds ${label} round ${round + 1} ${kind.padEnd(5)} ${fmt.rps(run.rps)} req/s ${run.cpuUsPerResponse.toFixed(0)} µs CPU ${JSON.stringify(run.statuses)}`,
      );
    }
  const expected = { hold: '201', patch: '200' };
  const others = (['hold', 'patch'] as const).reduce(
    (n, kind) =>
      n +
      runs[kind].reduce(
        (m, run) =>
          m +
          run.errors +
          Object.entries(run.statuses).reduce((k, [s, c]) => k + (s === expected[kind] ? 0 : c), 0),
        0,
      ),
    0,
  );
  ctx.check(
    `${label}: holds and PATCHes answered otherwise than 201/200`,
    String(others),
    '0',
    others === 0,
  );
  const cpu = median(
    runs.hold.map((run, i) => run.cpuUsPerResponse / runs.patch[i].cpuUsPerResponse),
  );
  ctx.check(
    `${label}: server CPU of a hold vs a PATCH of the same pets`,
    fmt.ratio(cpu),
    '<= 1.25x',
    cpu <= 1.25,
  );
  ctx.tables.push(
    `A hold against a PATCH, ${options.connections} connections over ${petIds.length} pets (${label})\n\n` +
      markdownTable(
        ['operation', 'req/s', 'server CPU per request', 'p99'],
        (['hold', 'patch'] as const).map((kind) => [
          kind === 'hold' ? 'POST holds (1 unit)' : 'PATCH',
          fmt.rps(median(runs[kind].map((r) => r.rps))),
          `${median(runs[kind].map((r) => r.cpuUsPerResponse)).toFixed(0)} µs`,
          fmt.ms(median(runs[kind].map((r) => r.p99Ms))),
        ]),
      ),
  );
  ctx.report[`holdVsPatch ${label}`] = {
    holdRps: median(runs.hold.map((r) => r.rps)),
    patchRps: median(runs.patch.map((r) => r.rps)),
    holdCpuUs: median(runs.hold.map((r) => r.cpuUsPerResponse)),
    patchCpuUs: median(runs.patch.map((r) => r.cpuUsPerResponse)),
    cpuRatio: cpu,
  };
}

/** GET /v1/inventory of 1,000 pets with 100 active holds against none, alternated. */
async function listingWithHolds(
  ctx: ScenarioContext,
  target: Target,
  petIds: number[],
  label: string,
) {
  const { options } = ctx;
  const holdIds: string[] = [];
  const hold = async () => {
    for (let i = 0; i < ACTIVE_HOLDS; i++) {
      const text = await expect(
        201,
        send(
          target,
          'POST',
          `/v1/inventory/${petIds[i]}/holds`,
          '{"quantity":1,"expiresIn":86400}',
          {
            'idempotency-key': randomUUID(),
          },
        ),
      );
      holdIds.push((JSON.parse(text) as { holdId: string }).holdId);
    }
  };
  const releaseAll = async () => {
    for (const id of holdIds.splice(0))
      await expect(200, send(target, 'POST', `/v1/holds/${id}/release`));
  };
  for (const petId of petIds.slice(0, ACTIVE_HOLDS))
    await expect(200, send(target, 'PATCH', `/v1/inventory/${petId}`, '{"quantity":10}'));
  const load = (duration: number) =>
    runLoad({
      url: target.url,
      connections: options.connections,
      duration,
      requests: [{ method: 'GET', path: '/v1/inventory', headers: target.headers }],
    });
  await load(options.warmup);
  const runs: Record<'held' | 'none', LoadResult[]> = { held: [], none: [] };
  for (let round = 0; round < options.rounds; round++)
    for (const kind of round % 2 === 0
      ? (['held', 'none'] as const)
      : (['none', 'held'] as const)) {
      if (kind === 'held') await hold();
      else await releaseAll();
      runs[kind].push(await load(options.duration));
    }
  await releaseAll();
  const ratio = median(runs.held.map((run, i) => run.rps / runs.none[i].rps));
  ctx.check(
    `${label}: GET /v1/inventory of ${LISTED} pets with ${ACTIVE_HOLDS} active holds vs none, req/s`,
    fmt.ratio(ratio),
    '>= 0.8x',
    ratio >= 0.8,
  );
  ctx.tables.push(
    `GET /v1/inventory of ${LISTED} pets (${label})\n\n` +
      markdownTable(
        ['holds', 'req/s', 'p99'],
        (['none', 'held'] as const).map((kind) => [
          kind === 'held' ? `${ACTIVE_HOLDS} active` : 'none',
          fmt.rps(median(runs[kind].map((r) => r.rps))),
          fmt.ms(median(runs[kind].map((r) => r.p99Ms))),
        ]),
      ),
  );
  ctx.report[`holdsListing ${label}`] = {
    heldRps: median(runs.held.map((r) => r.rps)),
    noneRps: median(runs.none.map((r) => r.rps)),
    ratio,
  };
}

async function measure(ctx: ScenarioContext, label: string, databaseUrl: string, apiKey: string) {
  const petIds = makeCatalog(LISTED).map((row) => row.petId);
  const target = await ctx.start({
    name: `service (${label}, holds)`,
    script: ctx.service,
    env: serviceEnv(databaseUrl),
    readyPath: '/health',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  try {
    await listingWithHolds(ctx, target, petIds, label);
    await holdVsPatch(ctx, target, petIds.slice(0, PETS), label);
  } finally {
    await ctx.stop(target);
  }
}

/** Holds: the CPU of creating one against a PATCH, and the listing with active holds. */
export async function holdsScenario(ctx: ScenarioContext): Promise<void> {
  const catalog = writeCatalog(ctx.work, makeCatalog(LISTED));
  const sqlite = prepareDatabase(ctx.work, 'holds', catalog);
  await measure(ctx, 'SQLite', sqlite.databaseUrl, sqlite.apiKey);
  if (!(await postgresReachable(ctx.options.postgresUrl))) {
    ctx.log('holds: PostgreSQL unreachable, measured on SQLite only');
    return;
  }
  const name = `petstore_bench_holds_${process.pid}`;
  const url = await createDatabase(ctx.options.postgresUrl, name);
  try {
    const postgres = prepareAt(url, catalog);
    await measure(ctx, 'PostgreSQL', postgres.databaseUrl, postgres.apiKey);
  } finally {
    await dropDatabase(ctx.options.postgresUrl, name);
  }
}
