import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import pg from 'pg';
import {
  makeCatalog,
  mulberry32,
  prepareAt,
  prepareDatabase,
  serviceEnv,
  writeCatalog,
  writeElsewhere,
} from './lib/fixtures.js';
import {
  COUNTING_ENV,
  type CountedRequest,
  countingCommand,
  instructionsPerRequest,
  valgrindVersion,
} from './lib/instructions.js';
import { type LoadResult, runLoad, timedRequest } from './lib/load.js';
import { type BenchOptions, parseOptions } from './lib/options.js';
import { adjustScenario } from './scenarios/adjust.js';
import { holdsScenario } from './scenarios/holds.js';
import {
  createDatabase,
  deleteRedisKeys,
  dropDatabase,
  PostgresFloor,
  postgresReachable,
} from './lib/postgres.js';
import { fmt, markdownTable } from './lib/report.js';
import { Target, type TargetSpec } from './lib/servers.js';
import { median, round } from './lib/stats.js';
import { pinProcesses, sleep } from './lib/system.js';
import { webhooksScenario } from './scenarios/webhooks.js';
import { storm } from './scenarios/storm.js';
import { redisTopologiesScenario } from './scenarios/redis-topologies.js';
import { tracingScenario } from './scenarios/tracing.js';

/*
 * `npm run bench`: the production build against two baselines in one run, on a machine that is
 * small and shared. Every figure that matters is a ratio between targets measured in the same
 * round; targets alternate within a round (the order rotates) and rounds repeat, and the
 * report gives medians. See docs/performance.md.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const PROBE = join(HERE, 'probe', 'event-loop.js');
const FLOOR = join(HERE, 'baselines', 'nest-floor.js');
const CEILING = join(HERE, 'baselines', 'ceiling.js');
const CACHED = join(HERE, 'baselines', 'nest-cached.js');
const PEER = join(HERE, 'baselines', 'nest-peer.js');
const SERVICE = resolve('dist/main.js');
/**
 * Another build of the service (its dist/main.js), measured beside this one at the default log
 * level in the GET and PATCH rounds: an A/B of a change in one run, on one machine.
 */
const SERVICE_BEFORE = process.env.BENCH_SERVICE_BEFORE;
const SERVICE_BEFORE_INFO = 'service before, info';
/** Pets changed by one write elsewhere in the large scenario: more than a cache applies from the change log. */
const LARGE_WRITE = 100;

const options = parseOptions(process.argv.slice(2), process.env);
const pinning = pinProcesses();
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const running = new Set<Target>();
const log = (line: string) => process.stderr.write(`${line}\n`);

type Results = Record<string, LoadResult[]>;

interface Check {
  name: string;
  value: string;
  goal: string;
  met: boolean;
}
const checks: Check[] = [];
const report: Record<string, unknown> = {};

function check(name: string, value: string, goal: string, met: boolean): void {
  checks.push({ name, value, goal, met });
}

async function start(spec: TargetSpec): Promise<Target> {
  const target = await Target.start(spec, {
    prefix: pinning.serverPrefix,
    probe: PROBE,
    logDir: work,
  });
  running.add(target);
  return target;
}

async function stop(...targets: Target[]): Promise<void> {
  await Promise.all(targets.map((target) => target.stop()));
  for (const target of targets) running.delete(target);
}

function baseline(name: string, script: string, catalog: string, apiKey: string): TargetSpec {
  // The baselines get the same Authorization header as the service, so every request is the same size.
  return {
    name,
    script,
    env: { BENCH_CATALOG: catalog },
    readyPath: '/v1/inventory',
    headers: { authorization: `Bearer ${apiKey}` },
  };
}

/** The floor on the service's HTTP adapter (src/platform/http/http-adapter.ts): what that adapter alone is worth. */
const FLOOR_ON_ADAPTER = "floor on the service's adapter";

function floorOnAdapter(catalog: string, apiKey: string): TargetSpec {
  const spec = baseline(FLOOR_ON_ADAPTER, FLOOR, catalog, apiKey);
  return { ...spec, env: { ...spec.env, BENCH_FLOOR_ADAPTER: 'api' } };
}

/** The same routes written the NestJS docs' way (bench/baselines/nest-peer.ts), on a SQLite file of its own. */
function nestPeer(catalog: string, apiKey: string): TargetSpec {
  const spec = baseline('NestJS peer (TypeORM)', PEER, catalog, apiKey);
  const database = join(work, `nest-peer-${basename(catalog, '.json')}.sqlite`);
  return { ...spec, env: { ...spec.env, BENCH_API_KEY: apiKey, BENCH_PEER_DATABASE: database } };
}

/** The service at its default log level (`info`: one line per request, here to a file). */
const SERVICE_INFO = 'service, info (default)';

function service(
  name: string,
  databaseUrl: string,
  apiKey: string,
  env: Record<string, string> = {},
  script = SERVICE,
): TargetSpec {
  return {
    name,
    script,
    env: { ...serviceEnv(databaseUrl), ...env },
    readyPath: '/health',
    headers: { authorization: `Bearer ${apiKey}` },
  };
}

function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePromise) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolvePromise(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Same bytes from every target, or the comparison is meaningless. An earlier build (the A/B) may
 * list fewer fields per item (`available` came with holds): it must answer 200.
 */
async function assertSameBody(targets: Target[], earlier: Target[] = []): Promise<number> {
  const all = [...targets, ...earlier];
  const bodies = await Promise.all(
    all.map((target) =>
      timedRequest(`${target.url}/v1/inventory`, { headers: target.headers, hash: true }),
    ),
  );
  bodies.forEach((body, i) => {
    if (body.status !== 200)
      throw new Error(`${all[i].name}: GET /v1/inventory answered ${body.status}`);
    if (i < targets.length && body.sha256 !== bodies[0].sha256)
      throw new Error(`${all[i].name} sends other bytes than ${all[0].name}`);
  });
  return bodies[0].bytes;
}

/**
 * Warm every target up, then `rounds` rounds in which each target runs once, the order
 * rotating so that no target always follows the same neighbour.
 */
async function alternate(
  label: string,
  targets: Target[],
  requests: (target: Target) => autocannon.Request[],
  hooks: {
    before?: (target: Target) => Promise<void>;
    after?: (target: Target, result: LoadResult) => Promise<void>;
  } = {},
  connections = options.connections,
): Promise<Results> {
  const results: Results = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (const target of targets) {
    await runLoad({
      url: target.url,
      connections,
      duration: options.warmup,
      requests: requests(target),
    });
  }
  for (let r = 0; r < options.rounds; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length]);
    for (const target of order) {
      await hooks.before?.(target);
      const result = await runLoad(
        { url: target.url, connections, duration: options.duration, requests: requests(target) },
        () => target.cpuMicros(),
      );
      await hooks.after?.(target, result);
      results[target.name].push(result);
      log(
        `  ${label} round ${r + 1}/${options.rounds} ${target.name.padEnd(22)} ${fmt.rps(result.rps).padStart(7)} req/s  p99 ${fmt.ms(result.p99Ms)}  ${JSON.stringify(result.statuses)}${result.errors ? ` errors ${result.errors}` : ''}`,
      );
    }
  }
  return results;
}

const medianOf = (runs: LoadResult[], pick: (run: LoadResult) => number) => median(runs.map(pick));

/** The median over rounds of a per-round ratio between two targets. */
function ratio(results: Results, a: string, b: string, pick: (run: LoadResult) => number): number {
  return median(results[a].map((run, i) => pick(run) / pick(results[b][i])));
}

function failures(runs: LoadResult[], ok: (status: number) => boolean): number {
  return runs.reduce(
    (sum, run) =>
      sum +
      run.errors +
      Object.entries(run.statuses).reduce(
        (n, [status, count]) => n + (ok(Number(status)) ? 0 : count),
        0,
      ),
    0,
  );
}

function summarise(results: Results): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      {
        rps: round(
          medianOf(runs, (run) => run.rps),
          0,
        ),
        p50Ms: round(
          medianOf(runs, (run) => run.p50Ms),
          3,
        ),
        p99Ms: round(
          medianOf(runs, (run) => run.p99Ms),
          3,
        ),
        cpuUsPerResponse: round(
          medianOf(runs, (run) => run.cpuUsPerResponse),
          1,
        ),
        rounds: runs.map((run) => ({
          rps: round(run.rps, 0),
          p50Ms: round(run.p50Ms, 3),
          p99Ms: round(run.p99Ms, 3),
          cpuUsPerResponse: round(run.cpuUsPerResponse, 1),
          statuses: run.statuses,
          errors: run.errors,
        })),
      },
    ]),
  );
}

const tables: string[] = [];

function throughputTable(title: string, results: Results, reference: string): void {
  const rows = Object.entries(results).map(([name, runs]) => [
    name,
    fmt.rps(medianOf(runs, (run) => run.rps)),
    name === reference ? '1.00x' : fmt.ratio(ratio(results, name, reference, (run) => run.rps)),
    fmt.ms(medianOf(runs, (run) => run.p50Ms)),
    fmt.ms(medianOf(runs, (run) => run.p99Ms)),
    name === reference ? '1.00x' : fmt.ratio(ratio(results, name, reference, (run) => run.p99Ms)),
    fmt.us(medianOf(runs, (run) => run.cpuUsPerResponse)),
    name === reference
      ? '1.00x'
      : fmt.ratio(ratio(results, name, reference, (run) => run.cpuUsPerResponse)),
  ]);
  const vs = `vs ${reference.split(' ')[0]}`;
  tables.push(
    `${title}\n\n${markdownTable(['target', 'req/s', vs, 'p50', 'p99', `p99 ${vs}`, 'server CPU/req', `CPU ${vs}`], rows)}`,
  );
}

function getRequest(target: Target, extra: Record<string, string> = {}): autocannon.Request[] {
  return [{ method: 'GET', path: '/v1/inventory', headers: { ...target.headers, ...extra } }];
}

/** The path and body of a PATCH setting a random pet to a random quantity. */
function randomUpdate(petIds: number[], random: () => number): { path: string; body: string } {
  return {
    path: `/v1/inventory/${petIds[Math.floor(random() * petIds.length)]}`,
    body: `{"quantity":${Math.floor(random() * 100)}}`,
  };
}

function patchRequest(target: Target, petIds: number[], seed: number): autocannon.Request {
  const random = mulberry32(seed);
  return {
    method: 'PATCH',
    path: '/v1/inventory/1',
    headers: { ...target.headers, 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...request, ...randomUpdate(petIds, random) }),
  };
}

/**
 * The service at its default log level against the NestJS peer and the bare Nest route (the
 * floor). The goals were set at 1,000 pets (`--items 1000`).
 */
function peerChecks(
  route: 'GET' | 'PATCH',
  items: number,
  results: Results,
  svcInfo: Target,
  peer: Target,
  floor: Target,
  goals: { peer: number; floor: number },
): void {
  const vsPeer = ratio(results, svcInfo.name, peer.name, (run) => run.rps);
  const vsFloor = ratio(results, svcInfo.name, floor.name, (run) => run.rps);
  const peerCpu = ratio(results, peer.name, svcInfo.name, (run) => run.cpuUsPerResponse);
  check(
    `${route} ${items} pets: service (info) vs the NestJS peer, req/s`,
    fmt.ratio(vsPeer),
    `>= ${goals.peer}x at 1,000 pets`,
    vsPeer >= goals.peer,
  );
  check(
    `${route} ${items} pets: service (info) vs floor (bare Nest route), req/s`,
    fmt.ratio(vsFloor),
    `>= ${goals.floor.toFixed(1)}x at 1,000 pets`,
    vsFloor >= goals.floor,
  );
  check(
    `${route} ${items} pets: server CPU per request, the NestJS peer vs service (info)`,
    fmt.ratio(peerCpu),
    '(reported)',
    true,
  );
}

/** This build against the build before (BENCH_SERVICE_BEFORE), both at the default log level. */
function beforeChecks(
  route: 'GET' | 'PATCH',
  results: Results,
  svcInfo: Target,
  before: Target,
  peer: Target,
): void {
  const vsBefore = ratio(results, svcInfo.name, before.name, (run) => run.rps);
  const beforeVsPeer = ratio(results, before.name, peer.name, (run) => run.rps);
  check(
    `${route}: service (info) vs the build before, req/s`,
    fmt.ratio(vsBefore),
    '>= 1.0x',
    vsBefore >= 1,
  );
  check(
    `${route}: the build before vs the NestJS peer, req/s`,
    fmt.ratio(beforeVsPeer),
    '(reported)',
    true,
  );
}

async function smallCatalogue(opts: BenchOptions): Promise<void> {
  const rows = makeCatalog(opts.items);
  const catalog = writeCatalog(work, rows);
  const petIds = rows.map((row) => row.petId);
  const main = prepareDatabase(work, 'service', catalog);
  const atInfo = prepareDatabase(work, 'service-info', catalog);

  // The limiter scenario (memory, the default, against Redis and off) needs a build that has one.
  const limiterBuilt = existsSync('dist/rate-limit');
  const redis =
    limiterBuilt && opts.redisUrl !== undefined && (await redisReachable(opts.redisUrl));
  const limiterOff = limiterBuilt
    ? prepareDatabase(work, 'service-limiter-off', catalog)
    : undefined;
  const limiterRedis = redis ? prepareDatabase(work, 'service-limiter-redis', catalog) : undefined;
  report.limiter = limiterBuilt
    ? redis
      ? 'memory, Redis and off'
      : 'memory and off (Redis unreachable)'
    : 'not measured (no rate limiter in this build)';

  const ceiling = await start(baseline('ceiling (node:http)', CEILING, catalog, main.apiKey));
  const floor = await start(baseline('floor (Nest+Express)', FLOOR, catalog, main.apiKey));
  const floorAdapted = await start(floorOnAdapter(catalog, main.apiKey));
  const cached = await start(baseline('Nest, cached bytes only', CACHED, catalog, main.apiKey));
  const svc = await start(service('service', main.databaseUrl, main.apiKey));
  const svcInfo = await start(
    service(SERVICE_INFO, atInfo.databaseUrl, atInfo.apiKey, { LOG_LEVEL: 'info' }),
  );
  const peer = await start(nestPeer(catalog, main.apiKey));
  const before =
    SERVICE_BEFORE === undefined
      ? undefined
      : await (async () => {
          const db = prepareDatabase(work, 'service-before', catalog);
          return start(
            service(
              SERVICE_BEFORE_INFO,
              db.databaseUrl,
              db.apiKey,
              { LOG_LEVEL: 'info' },
              resolve(SERVICE_BEFORE),
            ),
          );
        })();
  const off =
    limiterOff &&
    (await start(
      service('service, limiter off', limiterOff.databaseUrl, limiterOff.apiKey, {
        RATE_LIMIT_ENABLED: 'false',
      }),
    ));
  const onRedis =
    limiterRedis &&
    (await start(
      service('service, limiter on Redis', limiterRedis.databaseUrl, limiterRedis.apiKey, {
        REDIS_URL: opts.redisUrl!,
        REDIS_KEY_PREFIX: `petstore-bench-${process.pid}:`,
      }),
    ));
  const others = [off, onRedis].filter((target): target is Target => target !== undefined);
  const beside = before === undefined ? [] : [before];
  const bytes = await assertSameBody(
    [ceiling, floor, floorAdapted, cached, svc, svcInfo, peer, ...others],
    beside,
  );
  log(`${opts.items} items: ${bytes} bytes per listing; ${pinning.description}`);

  if (opts.scenarios.has('get')) {
    const plain = await alternate(
      'GET',
      [ceiling, floor, floorAdapted, cached, svc, svcInfo, peer, ...beside, ...others],
      (target) => getRequest(target),
    );
    throughputTable(
      `GET /v1/inventory, ${opts.items} items, 200 each time (${opts.connections} connections)`,
      plain,
      floor.name,
    );
    const getRatio = ratio(plain, svc.name, floor.name, (run) => run.rps);
    const getP99 = ratio(plain, svc.name, floor.name, (run) => run.p99Ms);
    check(
      'GET 100: service vs floor throughput',
      fmt.ratio(getRatio),
      '>= 1.2x (at least 1.0x)',
      getRatio >= 1.2,
    );
    check('GET 100: service vs floor p99', fmt.ratio(getP99), '<= 1.5x', getP99 <= 1.5);
    peerChecks('GET', opts.items, plain, svcInfo, peer, floor, { peer: 15, floor: 3 });
    if (before) beforeChecks('GET', plain, svcInfo, before, peer);
    const cachedRatio = ratio(plain, cached.name, floor.name, (run) => run.rps);
    check(
      'GET 100: Nest sending cached bytes, nothing else, vs floor',
      fmt.ratio(cachedRatio),
      '(reported)',
      true,
    );
    const adaptedRatio = ratio(plain, svc.name, floorAdapted.name, (run) => run.rps);
    check(
      "GET 100: service vs the floor on the service's adapter",
      fmt.ratio(adaptedRatio),
      '(reported)',
      true,
    );
    if (off) {
      // Throughput on a shared machine swings by more than the 5% asked about; server CPU per
      // request is the steadier measure of the same cost, so both are reported.
      const memoryCost = 1 - ratio(plain, svc.name, off.name, (run) => run.rps);
      const memoryCpu = ratio(plain, svc.name, off.name, (run) => run.cpuUsPerResponse) - 1;
      check(
        'Limiter on memory: throughput cost vs off',
        fmt.pct(memoryCost),
        '< 5%',
        memoryCost < 0.05,
      );
      check(
        'Limiter on memory: extra server CPU per request vs off',
        fmt.pct(memoryCpu),
        '(reported)',
        true,
      );
      if (onRedis) {
        const redisCost = 1 - ratio(plain, onRedis.name, off.name, (run) => run.rps);
        const redisCpu = ratio(plain, onRedis.name, off.name, (run) => run.cpuUsPerResponse) - 1;
        check('Limiter on Redis: throughput cost vs off', fmt.pct(redisCost), '(reported)', true);
        check(
          'Limiter on Redis: extra server CPU per request vs off',
          fmt.pct(redisCpu),
          '(reported)',
          true,
        );
      }
    }
    const errors = failures(Object.values(plain).flat(), (status) => status === 200);
    check('GET 100: non-200 responses and errors', String(errors), '0', errors === 0);

    const etags = Object.fromEntries(
      await Promise.all(
        [floor, svc].map(async (target) => {
          const res = await timedRequest(`${target.url}/v1/inventory`, { headers: target.headers });
          return [target.name, String(res.headers.etag ?? '')] as const;
        }),
      ),
    );
    const revalidated = await alternate('GET If-None-Match', [floor, svc], (target) =>
      getRequest(target, { 'if-none-match': etags[target.name] }),
    );
    throughputTable(
      `GET /v1/inventory, ${opts.items} items, revalidated (If-None-Match -> 304)`,
      revalidated,
      floor.name,
    );
    const revalidatedRatio = ratio(revalidated, svc.name, floor.name, (run) => run.rps);
    check(
      'GET 100 revalidated (304): service vs floor throughput',
      fmt.ratio(revalidatedRatio),
      '(reported)',
      true,
    );
    const not304 = failures(Object.values(revalidated).flat(), (status) => status === 304);
    check('GET 100 revalidated: responses other than 304', String(not304), '0', not304 === 0);
    report.get = {
      items: opts.items,
      bytes,
      plain: summarise(plain),
      revalidated: summarise(revalidated),
      etags,
    };
  }

  if (opts.scenarios.has('patch')) {
    let seed = 1;
    const patch = await alternate(
      'PATCH',
      [floor, floorAdapted, svc, svcInfo, peer, ...beside],
      (target) => [patchRequest(target, petIds, seed++)],
    );
    throughputTable(
      `PATCH /v1/inventory/{random petId} (${opts.connections} connections)`,
      patch,
      floor.name,
    );
    const patchRatio = ratio(patch, svc.name, floor.name, (run) => run.rps);
    const patchP99 = ratio(patch, svc.name, floor.name, (run) => run.p99Ms);
    check(
      'PATCH: service (durable) vs floor (in memory) throughput',
      fmt.ratio(patchRatio),
      '>= 0.8x',
      patchRatio >= 0.8,
    );
    check('PATCH: service vs floor p99', fmt.ratio(patchP99), '<= 1.5x', patchP99 <= 1.5);
    peerChecks('PATCH', opts.items, patch, svcInfo, peer, floor, { peer: 4, floor: 1 });
    if (before) beforeChecks('PATCH', patch, svcInfo, before, peer);
    const patchAdapted = ratio(patch, svc.name, floorAdapted.name, (run) => run.rps);
    check(
      "PATCH: service vs the floor (in memory) on the service's adapter",
      fmt.ratio(patchAdapted),
      '(reported)',
      true,
    );
    const errors = failures(Object.values(patch).flat(), (status) => status === 200);
    check('PATCH: non-200 responses and errors', String(errors), '0', errors === 0);
    report.patch = summarise(patch);
  }

  if (opts.scenarios.has('soak') && opts.soak > 0) {
    const mix = (): autocannon.Request[] => [
      ...Array.from({ length: 9 }, () => getRequest(svc)[0]),
      patchRequest(svc, petIds, 99),
    ];
    const warmup = Math.max(5, Math.min(15, Math.round(opts.soak / 4)));
    log(
      `  soak: ${warmup} s warm-up, then ${opts.soak} s of 9 GET : 1 PATCH at ${opts.connections} connections`,
    );
    const warm = await runLoad({
      url: svc.url,
      connections: opts.connections,
      duration: warmup,
      requests: mix(),
    });
    // Memory is read at both ends once it has settled after full collections (the probe can
    // trigger one): what is retained, not where the collector and allocator happened to be.
    const atWarm = await svc.settledMemory();
    const rssSamples: number[] = [];
    const sampler = setInterval(() => rssSamples.push(svc.memory().rss), 1000);
    const soak = await runLoad(
      { url: svc.url, connections: opts.connections, duration: opts.soak, requests: mix() },
      () => svc.cpuMicros(),
    );
    clearInterval(sampler);
    const atEnd = await svc.settledMemory();
    const growth = atEnd.rss / atWarm.rss - 1;
    const heapGrowth = atEnd.heapUsed / atWarm.heapUsed - 1;
    const errors = failures([warm, soak], (status) => status === 200);
    tables.push(
      `Soak: ${opts.soak} s at saturation after ${warmup} s of warm-up, 9 GET : 1 PATCH (${opts.connections} connections)\n\n` +
        markdownTable(
          [
            'responses',
            'req/s',
            'p99',
            'errors',
            'RSS after warm-up',
            'RSS after soak',
            'RSS growth',
            'heap growth',
            'RSS peak during soak',
          ],
          [
            [
              fmt.rps(soak.responses),
              fmt.rps(soak.rps),
              fmt.ms(soak.p99Ms),
              String(errors),
              fmt.mib(atWarm.rss),
              fmt.mib(atEnd.rss),
              fmt.pct(growth),
              fmt.pct(heapGrowth),
              fmt.mib(Math.max(...rssSamples)),
            ],
          ],
        ),
    );
    check('Soak: errors and non-200 responses', String(errors), '0', errors === 0);
    check('Soak: RSS growth after warm-up', fmt.pct(growth), '<= 10%', growth <= 0.1);
    report.soak = {
      seconds: opts.soak,
      warmupSeconds: warmup,
      responses: soak.responses,
      rps: round(soak.rps, 0),
      p99Ms: round(soak.p99Ms, 3),
      errors,
      statuses: soak.statuses,
      afterWarmup: { rss: atWarm.rss, heapUsed: atWarm.heapUsed },
      afterSoak: { rss: atEnd.rss, heapUsed: atEnd.heapUsed },
      rssSamples,
    };
  }
  await stop(ceiling, floor, floorAdapted, cached, svc, svcInfo, peer, ...beside, ...others);
}

async function largeCatalogue(opts: BenchOptions): Promise<void> {
  const rows = makeCatalog(opts.largeItems);
  const catalog = writeCatalog(work, rows);
  log(`importing ${opts.largeItems} items`);
  const db = prepareDatabase(work, 'service-large', catalog);
  const ceiling = await start(baseline('ceiling (node:http)', CEILING, catalog, db.apiKey));
  const floor = await start(baseline('floor (Nest+Express)', FLOOR, catalog, db.apiKey));
  const svc = await start(service('service', db.databaseUrl, db.apiKey));
  const targets = [ceiling, floor, svc];
  const bytes = await assertSameBody(targets);
  log(`${opts.largeItems} items: ${bytes} bytes per listing`);

  // Single requests, one at a time: the service's first GET after a write rebuilds the listing.
  const samples = Math.max(3, opts.rounds);
  const single: Record<string, { warmMs: number[]; loopMaxMs: number[] }> = {};
  for (const target of targets) {
    await target.probe(true);
    const warmMs: number[] = [];
    for (let i = 0; i < samples; i++)
      warmMs.push(
        (await timedRequest(`${target.url}/v1/inventory`, { headers: target.headers })).ms,
      );
    single[target.name] = { warmMs, loopMaxMs: [(await target.probe(true)).maxMs] };
  }
  // After a write the service serves a new listing: its own PATCH is applied to the cached one,
  // so is a write made elsewhere (another instance, the CLI) to one pet, found in the change
  // log; a write elsewhere to more pets than it applies that way means reading every row.
  const afterOwnWriteMs: number[] = [];
  const afterOtherWriteMs: number[] = [];
  const afterLargeWriteMs: number[] = [];
  const rebuildLoopMaxMs: number[] = [];
  const writeOther = writeElsewhere(db.databaseUrl);
  for (let i = 0; i < samples; i++) {
    const petId = rows[Math.floor(((i + 0.5) / samples) * rows.length)].petId;
    const patch = await timedRequest(`${svc.url}/v1/inventory/${petId}`, {
      method: 'PATCH',
      headers: { ...svc.headers, 'content-type': 'application/json' },
      body: `{"quantity":${i + 1}}`,
    });
    if (patch.status !== 200) throw new Error(`PATCH answered ${patch.status}`);
    await svc.probe(true);
    afterOwnWriteMs.push(
      (await timedRequest(`${svc.url}/v1/inventory`, { headers: svc.headers })).ms,
    );
    writeOther([petId]);
    afterOtherWriteMs.push(
      (await timedRequest(`${svc.url}/v1/inventory`, { headers: svc.headers })).ms,
    );
    await svc.probe(true);
    writeOther(rows.slice(i * LARGE_WRITE, (i + 1) * LARGE_WRITE).map((row) => row.petId));
    afterLargeWriteMs.push(
      (await timedRequest(`${svc.url}/v1/inventory`, { headers: svc.headers })).ms,
    );
    await sleep(20);
    rebuildLoopMaxMs.push((await svc.probe(true)).maxMs);
  }

  const peaks: Record<string, number[]> = Object.fromEntries(
    targets.map((target) => [target.name, []]),
  );
  const loopMax: Record<string, number[]> = Object.fromEntries(
    targets.map((target) => [target.name, []]),
  );
  const load = await alternate('GET 100k', targets, (target) => getRequest(target), {
    before: async (target) => {
      target.resetPeak();
      await target.probe(true);
    },
    after: async (target) => {
      peaks[target.name].push(target.memory().peak);
      loopMax[target.name].push((await target.probe(true)).maxMs);
    },
  });

  const rowsOut = targets.map((target) => {
    const runs = load[target.name];
    return [
      target.name,
      fmt.ms(median(single[target.name].warmMs)),
      target === svc ? fmt.ms(median(afterOwnWriteMs)) : '–',
      target === svc ? fmt.ms(median(afterOtherWriteMs)) : '–',
      target === svc ? fmt.ms(median(afterLargeWriteMs)) : '–',
      fmt.ms(
        Math.max(...single[target.name].loopMaxMs, ...(target === svc ? rebuildLoopMaxMs : [])),
      ),
      fmt.rps(medianOf(runs, (run) => run.rps)),
      fmt.ms(medianOf(runs, (run) => run.p50Ms)),
      fmt.ms(medianOf(runs, (run) => run.p99Ms)),
      fmt.mib(median(peaks[target.name])),
      fmt.ms(Math.max(...loopMax[target.name])),
    ];
  });
  tables.push(
    `GET /v1/inventory, ${opts.largeItems.toLocaleString('en-US')} items (${(bytes / 1024 / 1024).toFixed(1)} MiB): one client, then ${opts.connections} connections\n\n` +
      markdownTable(
        [
          'target',
          'TTLB',
          'TTLB after own PATCH',
          'TTLB after a write elsewhere',
          `TTLB after ${LARGE_WRITE} writes elsewhere (full read)`,
          'loop block, one client',
          'req/s',
          'p50',
          'p99',
          'peak RSS',
          'loop block under load',
        ],
        rowsOut,
      ),
  );

  const floorMs = median(single[floor.name].warmMs);
  const warmRatio = median(single[svc.name].warmMs) / floorMs;
  const ownRatio = median(afterOwnWriteMs) / floorMs;
  const otherRatio = median(afterOtherWriteMs) / floorMs;
  const largeRatio = median(afterLargeWriteMs) / floorMs;
  const rpsRatio = ratio(load, svc.name, floor.name, (run) => run.rps);
  const rssRatio = median(peaks[svc.name].map((peak, i) => peak / peaks[floor.name][i]));
  const blocked = Math.max(...rebuildLoopMaxMs);
  check('GET 100k: time to last byte vs floor', fmt.ratio(warmRatio), '<= 1.0x', warmRatio <= 1);
  check(
    'GET 100k: time to last byte after own PATCH vs floor',
    fmt.ratio(ownRatio),
    '<= 1.0x',
    ownRatio <= 1,
  );
  check(
    'GET 100k: time to last byte after a write elsewhere vs floor',
    fmt.ratio(otherRatio),
    '<= 1.0x',
    otherRatio <= 1,
  );
  check(
    `GET 100k: time to last byte after ${LARGE_WRITE} writes elsewhere (full read) vs floor`,
    fmt.ratio(largeRatio),
    '(reported)',
    true,
  );
  check('GET 100k: throughput vs floor', fmt.ratio(rpsRatio), '>= 1.0x', rpsRatio >= 1);
  check('GET 100k: peak RSS vs floor', fmt.ratio(rssRatio), '<= 1.2x', rssRatio <= 1.2);
  check(
    'GET 100k: longest event-loop block while a listing is built',
    fmt.ms(blocked),
    '<= 100 ms',
    blocked <= 100,
  );
  const errors = failures(Object.values(load).flat(), (status) => status === 200);
  check('GET 100k: non-200 responses and errors', String(errors), '0', errors === 0);
  report.large = {
    items: opts.largeItems,
    bytes,
    single,
    afterOwnWriteMs,
    afterOtherWriteMs,
    afterLargeWriteMs,
    rebuildLoopMaxMs,
    peaks,
    loopMax,
    load: summarise(load),
  };
  await stop(...targets);
}

/** Changes a client catches up on in the sync scenario. */
const SYNC_CHANGES = 100;
const FEED_PAGE = 1000;
const NEXT_CURSOR = /after=([A-Za-z0-9_-]+)/;

/**
 * A client keeping a copy of the large catalogue current after SYNC_CHANGES changes: by
 * listing again, or by following the change feed from the listing's X-Changes-Cursor. Each
 * time covers the requests, the bytes and parsing the JSON, as a client would.
 */
async function syncCatalogue(opts: BenchOptions): Promise<void> {
  const rows = makeCatalog(opts.largeItems);
  const catalog = writeCatalog(work, rows);
  const db = prepareDatabase(work, 'service-sync', catalog);
  const svc = await start(service('service', db.databaseUrl, db.apiKey));
  const get = async (path: string) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${svc.url}${path}`, { headers: svc.headers });
    const body = JSON.parse(await res.text()) as unknown[];
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return { res, body, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  const random = mulberry32(7);
  const relistMs: number[] = [];
  const feedMs: number[] = [];
  const samples = Math.max(3, opts.rounds);
  for (let i = 0; i < samples; i++) {
    const cursor = (await get('/v1/inventory')).res.headers.get('x-changes-cursor');
    if (!cursor) throw new Error('GET /v1/inventory sent no X-Changes-Cursor');
    for (let j = 0; j < SYNC_CHANGES; j++) {
      const petId = rows[Math.floor(random() * rows.length)].petId;
      const res = await fetch(`${svc.url}/v1/inventory/${petId}`, {
        method: 'PATCH',
        headers: { ...svc.headers, 'content-type': 'application/json' },
        body: `{"quantity":${1_000_000 + i * SYNC_CHANGES + j},"reason":"received"}`,
      });
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      await res.arrayBuffer();
    }
    const started = process.hrtime.bigint();
    let seen = 0;
    for (let after = cursor; ;) {
      const page = await get(`/v1/inventory/changes?after=${after}&limit=${FEED_PAGE}`);
      seen += page.body.length;
      after = NEXT_CURSOR.exec(page.res.headers.get('link') ?? '')?.[1] ?? '';
      if (page.body.length < FEED_PAGE) break;
    }
    feedMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (seen !== SYNC_CHANGES)
      throw new Error(`the feed gave ${seen} changes, not ${SYNC_CHANGES}`);
    // After the feed: the garbage of parsing a whole listing must not land in the feed's time.
    relistMs.push((await get('/v1/inventory')).ms);
  }
  const relist = median(relistMs);
  const feed = median(feedMs);
  tables.push(
    `Keeping ${opts.largeItems.toLocaleString('en-US')} items current after ${SYNC_CHANGES} changes (one client, request to parsed JSON)

` +
      markdownTable(
        ['way', 'time'],
        [
          ['list again (GET /v1/inventory)', fmt.ms(relist)],
          ['follow the feed (GET /v1/inventory/changes)', fmt.ms(feed)],
        ],
      ),
  );
  check(
    `Sync ${opts.largeItems} items after ${SYNC_CHANGES} changes: re-listing vs following the feed`,
    fmt.ratio(relist / feed),
    '>= 20x',
    relist / feed >= 20,
  );
  report.sync = { items: opts.largeItems, changes: SYNC_CHANGES, relistMs, feedMs };
  await stop(svc);
}

/** Requests counted per target and scenario, after this many to warm up; and how many at a time. */
const COUNTED = { warmup: 3000, count: 2000, connections: 4 };

/**
 * Instructions per request (valgrind's callgrind), for the `GET` of the small catalogue and the
 * `PATCH`: the service, the floor, the cached-bytes baseline and the service with its limiter
 * off. One target at a time, each started under valgrind on its own database.
 */
async function instructionCounts(opts: BenchOptions): Promise<void> {
  const version = valgrindVersion();
  if (version === undefined) {
    log('instructions: skipped, valgrind is not installed (Debian: apt-get install valgrind)');
    report.instructions = 'not measured (valgrind not installed)';
    return;
  }
  const rows = makeCatalog(opts.items);
  const catalog = writeCatalog(work, rows);
  const petIds = rows.map((row) => row.petId);
  const dir = mkdtempSync(join(work, 'callgrind-'));
  const counting = countingCommand(dir);
  const specs: { spec: TargetSpec; patch: boolean }[] = [];
  const main = prepareDatabase(work, 'counted-service', catalog);
  specs.push({ spec: baseline('floor (Nest+Express)', FLOOR, catalog, main.apiKey), patch: true });
  specs.push({ spec: floorOnAdapter(catalog, main.apiKey), patch: true });
  specs.push({
    spec: baseline('Nest, cached bytes only', CACHED, catalog, main.apiKey),
    patch: false,
  });
  specs.push({ spec: service('service', main.databaseUrl, main.apiKey), patch: true });
  if (SERVICE_BEFORE !== undefined) {
    const db = prepareDatabase(work, 'counted-service-before', catalog);
    specs.push({
      spec: service('service before', db.databaseUrl, db.apiKey, {}, resolve(SERVICE_BEFORE)),
      patch: true,
    });
  }
  if (existsSync('dist/rate-limit')) {
    const off = prepareDatabase(work, 'counted-service-limiter-off', catalog);
    specs.push({
      spec: service('service, limiter off', off.databaseUrl, off.apiKey, {
        RATE_LIMIT_ENABLED: 'false',
      }),
      patch: false,
    });
  }

  const counts: Record<string, { get: number; patch?: number }> = {};
  for (const { spec, patch } of specs) {
    log(`  instructions: ${spec.name} (starting under valgrind)`);
    const target = await Target.start(
      { ...spec, env: { ...spec.env, ...COUNTING_ENV } },
      {
        prefix: counting.prefix,
        nodeArgs: counting.nodeArgs,
        probe: PROBE,
        logDir: work,
        readyWithinMs: 600_000,
      },
    );
    running.add(target);
    try {
      const get = (): CountedRequest => ({
        method: 'GET',
        path: '/v1/inventory',
        headers: target.headers,
      });
      counts[spec.name] = { get: await instructionsPerRequest(target, dir, get, COUNTED) };
      if (patch) {
        const random = mulberry32(7);
        const update = (): CountedRequest => ({
          method: 'PATCH',
          headers: { ...target.headers, 'content-type': 'application/json' },
          ...randomUpdate(petIds, random),
        });
        counts[spec.name].patch = await instructionsPerRequest(target, dir, update, COUNTED);
      }
      log(`  instructions: ${spec.name} ${JSON.stringify(counts[spec.name])}`);
    } finally {
      await stop(target);
    }
  }

  const floor = counts['floor (Nest+Express)'];
  const thousands = (n: number | undefined) =>
    n === undefined ? '–' : `${Math.round(n / 1000).toLocaleString('en-US')}k`;
  const versus = (n: number | undefined, of: number | undefined) =>
    n === undefined || of === undefined ? '–' : fmt.ratio(n / of);
  const table = Object.entries(counts).map(([name, c]) => [
    name,
    thousands(c.get),
    versus(c.get, floor.get),
    thousands(c.patch),
    versus(c.patch, floor.patch),
  ]);
  tables.push(
    `Instructions per request (${version}; ${COUNTED.count} requests after ${COUNTED.warmup} to warm up, ${COUNTED.connections} connections; fewer is better)\n\n` +
      markdownTable(['target', 'GET', 'GET vs floor', 'PATCH', 'PATCH vs floor'], table),
  );
  const svc = counts.service;
  check('Instructions: service GET vs floor', versus(svc.get, floor.get), '(reported)', true);
  check('Instructions: service PATCH vs floor', versus(svc.patch, floor.patch), '(reported)', true);
  const before = counts['service before'];
  if (before) {
    check(
      'Instructions: service GET vs the build before',
      versus(svc.get, before.get),
      '<= 1.0x',
      svc.get <= before.get,
    );
    check(
      'Instructions: service PATCH vs the build before',
      versus(svc.patch, before.patch),
      '<= 1.0x',
      svc.patch! <= before.patch!,
    );
  }
  const off = counts['service, limiter off'];
  if (off)
    check(
      'Instructions: limiter on memory, extra per GET vs off',
      fmt.pct(svc.get / off.get - 1),
      '(reported)',
      true,
    );
  report.instructions = { valgrind: version, ...COUNTED, perRequest: counts };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A well-formed production key that no database holds. */
function randomApiKey(random: () => number): string {
  let secret = '';
  for (let i = 0; i < 40; i++) secret += BASE62[Math.floor(random() * 62)];
  return `pk_live_${secret}`;
}

function randomKeyRequest(seed: number): autocannon.Request {
  const random = mulberry32(seed);
  return {
    method: 'GET',
    path: '/v1/inventory',
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${randomApiKey(random)}` },
    }),
  };
}

/** The same server under another name: one flood per name, alternating within each round. */
function alias(target: Target, name: string): Target {
  return Object.create(target, { name: { value: name } }) as Target;
}

/** Sends `count` requests one after another; returns the statuses seen. */
async function sendSequentially(
  url: string,
  count: number,
  headers: () => Record<string, string>,
): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < count; i++)
    seen.add((await timedRequest(`${url}/v1/inventory`, { headers: headers() })).status);
  return seen;
}

/** seq_scan + idx_scan of api_keys, once the statistics collector has caught up. */
/**
 * A PostgreSQL backend (15 and later) reports its table statistics when it ends a transaction at
 * most once a second, and an idle one after 10 s (PGSTAT_IDLE_INTERVAL): the service's pooled
 * connections may still hold scans made before the reading. Waiting 11 s makes the count final.
 */
async function apiKeysScans(databaseUrl: string): Promise<number> {
  await sleep(11_000);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ scans: string }>(
      `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans FROM pg_stat_user_tables WHERE relname = 'api_keys'`,
    );
    return Number(rows[0]?.scans ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Floods that are refused: well-formed random keys from a banned IP, a banned key, and no key
 * (all from this machine's one address, banned before measuring), each against a successful
 * GET of the same catalogue in the same rounds. What a refusal costs the server is the ratio of
 * server CPU per response. On PostgreSQL, the random-key flood must not reach api_keys once the
 * IP's budget for failed lookups is spent.
 */
async function abuse(opts: BenchOptions): Promise<void> {
  const catalog = writeCatalog(work, makeCatalog(opts.items));
  const main = prepareDatabase(work, 'service-abuse', catalog);
  const env = serviceEnv(main.databaseUrl);
  const banned = execFileSync(
    process.execPath,
    [
      'dist/cli/cli.js',
      'keys',
      'create',
      '--plan',
      'free',
      '--per-minute',
      '1',
      '--name',
      'banned',
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
    .trim()
    .split('\n')
    .at(-1)!
    .trim();
  const svc = await start(
    service('service', main.databaseUrl, main.apiKey, { RATE_LIMIT_BAN_SECONDS: '86400' }),
  );
  const random = mulberry32(7);
  // The valid key is used before its address is banned, as a client sharing it would have.
  if ((await timedRequest(`${svc.url}/v1/inventory`, { headers: svc.headers })).status !== 200)
    throw new Error('abuse: the valid key was refused');
  const bannedIp = await sendSequentially(svc.url, 90, () => ({}));
  const bannedKey = await sendSequentially(svc.url, 30, () => ({
    authorization: `Bearer ${banned}`,
  }));
  if (!bannedIp.has(429) || !bannedKey.has(429))
    throw new Error('abuse: could not ban the client address and the key before measuring');

  const ok = alias(svc, 'GET 200 (valid key)');
  const randomKeys = alias(svc, 'random keys, banned IP');
  const bannedFlood = alias(svc, 'banned key');
  const noKey = alias(svc, 'no key, banned IP');
  // What any answer costs here (parsing, routing, headers, the write): no guard, no limiter.
  const liveness = alias(svc, 'GET /health (reference)');
  let seed = 1;
  const floods = [ok, randomKeys, bannedFlood, noKey, liveness];
  const results = await alternate('abuse', floods, (target) => {
    if (target === liveness) return [{ method: 'GET', path: '/health' }];
    if (target === randomKeys) return [randomKeyRequest(seed++)];
    if (target === bannedFlood)
      return [
        { method: 'GET', path: '/v1/inventory', headers: { authorization: `Bearer ${banned}` } },
      ];
    if (target === noKey) return [{ method: 'GET', path: '/v1/inventory' }];
    return getRequest(svc);
  });
  throughputTable(
    `Refused floods against a successful GET /v1/inventory of ${opts.items} items (${opts.connections} connections)`,
    results,
    ok.name,
  );
  for (const flood of [randomKeys, bannedFlood, noKey]) {
    const cpu = ratio(results, flood.name, ok.name, (run) => run.cpuUsPerResponse);
    check(
      `Abuse: ${flood.name}, server CPU per response vs a 200 GET`,
      fmt.ratio(cpu),
      '<= 0.7x',
      cpu <= 0.7,
    );
    const other = failures(results[flood.name], (status) => status === 429);
    check(`Abuse: ${flood.name}, responses other than 429`, String(other), '0', other === 0);
  }
  const not200 = failures(results[ok.name], (status) => status === 200);
  check('Abuse: valid key during the floods, non-200 responses', String(not200), '0', not200 === 0);
  await stop(svc);
  report.abuse = { items: opts.items, floods: summarise(results) };

  // PostgreSQL: does the random-key flood reach api_keys once the budget is spent?
  const admin = new pg.Client({ connectionString: opts.postgresUrl });
  const reachable = await admin.connect().then(
    () => true,
    () => false,
  );
  if (!reachable) {
    check('Abuse on PostgreSQL: api_keys scans during the flood', 'not measured', '0', true);
    report.abusePostgres = `PostgreSQL unreachable at ${opts.postgresUrl}`;
    return;
  }
  const name = `petstore_bench_abuse_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(opts.postgresUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    const onPg = await start(
      service('service on PostgreSQL', databaseUrl, main.apiKey, {
        RATE_LIMIT_BAN_SECONDS: '86400',
      }),
    );
    try {
      // The budget: 60 failed lookups a minute, then refusals (and, after 20 more, the ban).
      const budget = await sendSequentially(onPg.url, 90, () => ({
        authorization: `Bearer ${randomApiKey(random)}`,
      }));
      if (!budget.has(429)) throw new Error('abuse: the random-key budget was never spent');
      const before = await apiKeysScans(databaseUrl);
      const flood = await runLoad(
        {
          url: onPg.url,
          connections: opts.connections,
          duration: opts.duration * opts.rounds,
          requests: [randomKeyRequest(seed++)],
        },
        () => onPg.cpuMicros(),
      );
      const scans = (await apiKeysScans(databaseUrl)) - before;
      log(
        `  abuse on PostgreSQL: ${flood.responses} random-key requests ${JSON.stringify(flood.statuses)}, api_keys scans ${scans}`,
      );
      check(
        'Abuse on PostgreSQL: api_keys scans during a random-key flood from a spent IP',
        `${scans} in ${flood.responses} requests`,
        '0',
        scans === 0,
      );
      report.abusePostgres = {
        requests: flood.responses,
        statuses: flood.statuses,
        apiKeysScans: scans,
        rps: round(flood.rps, 0),
        cpuUsPerResponse: round(flood.cpuUsPerResponse, 1),
      };
    } finally {
      await stop(onPg);
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

/** The catalogue of the deployed-path scenario. */
const DEPLOYED_ITEMS = 1000;
const PG_FLOOR = join(HERE, 'baselines', 'pg-floor.js');

type DeployedKind =
  'GET listing' | 'GET random pet' | 'GET hot pet' | 'PATCH random pet' | 'PATCH hot pet';

interface Runner {
  name: string;
  run(seconds: number, kind: DeployedKind, seed: number): Promise<LoadResult>;
}

/** Busy share of every CPU of the machine over a stretch (/proc/stat): what bounds two instances. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/**
 * The service as operators run it: the default log level (`info`, every request logged to its
 * stdout, here a file) on SQLite with the limiter in memory, the same at `warn`, and on
 * PostgreSQL + Redis, one instance and two sharing the load, each pinned to its own CPU; and a
 * node-postgres floor for the PATCH. 1,000 pets; GET and PATCH of random pets and of one.
 */
async function deployedPath(opts: BenchOptions): Promise<void> {
  const rows = makeCatalog(DEPLOYED_ITEMS);
  const catalog = writeCatalog(work, rows);
  const petIds = rows.map((row) => row.petId);
  const hot = petIds[0];
  const redisUp = opts.redisUrl !== undefined && (await redisReachable(opts.redisUrl));
  const pgUp = await postgresReachable(opts.postgresUrl);
  if (!redisUp || !pgUp) {
    log(`deployed: skipped, ${pgUp ? 'Redis' : 'PostgreSQL'} unreachable`);
    check(
      'Deployed path (PostgreSQL + Redis)',
      'not measured',
      'PostgreSQL and Redis reachable',
      false,
    );
    report.deployed = 'not measured: PostgreSQL or Redis unreachable';
    return;
  }
  const sqliteInfo = prepareDatabase(work, 'deployed-info', catalog);
  const sqliteWarn = prepareDatabase(work, 'deployed-warn', catalog);
  const dbName = `petstore_bench_deployed_${process.pid}`;
  const redisPrefix = `petstore-bench-deployed-${process.pid}:`;
  const pgUrl = await createDatabase(opts.postgresUrl, dbName);
  const targets: Target[] = [];
  let floor: PostgresFloor | undefined;
  try {
    const onPg = prepareAt(pgUrl, catalog);
    const pgEnv = { LOG_LEVEL: 'info', REDIS_URL: opts.redisUrl!, REDIS_KEY_PREFIX: redisPrefix };
    const info = await start(
      service('SQLite + memory, info', sqliteInfo.databaseUrl, sqliteInfo.apiKey, {
        LOG_LEVEL: 'info',
      }),
    );
    const warn = await start(
      service('SQLite + memory, warn', sqliteWarn.databaseUrl, sqliteWarn.apiKey),
    );
    const pgA = await start(service('PostgreSQL + Redis, info', pgUrl, onPg.apiKey, pgEnv));
    // The second instance on the other CPU: two pinned to one would share one core's time.
    const pgB = await Target.start(
      service('PostgreSQL + Redis, second instance', pgUrl, onPg.apiKey, pgEnv),
      {
        prefix: pinning.serverPrefix.length > 0 ? ['taskset', '-c', '1'] : [],
        probe: PROBE,
        logDir: work,
      },
    );
    running.add(pgB);
    targets.push(info, warn, pgA, pgB);
    floor = await PostgresFloor.start('node-postgres floor', PG_FLOOR, pinning.serverPrefix, {
      DATABASE_URL: pgUrl,
      DB_POOL_SIZE: '10',
    });

    const busy: Record<string, number[]> = {};
    const http = (name: string, servers: Target[]): Runner => ({
      name,
      async run(seconds, kind, seed) {
        const random = mulberry32(seed);
        const headers = servers[0].headers;
        const patch = kind.startsWith('PATCH');
        const pick = () =>
          kind.endsWith('hot pet') ? hot : petIds[Math.floor(random() * petIds.length)];
        const request: autocannon.Request =
          kind === 'GET listing'
            ? { method: 'GET', path: '/v1/inventory', headers }
            : patch
              ? {
                  method: 'PATCH',
                  path: '/v1/inventory/1',
                  headers: { ...headers, 'content-type': 'application/json' },
                  setupRequest: (req) => ({
                    ...req,
                    path: `/v1/inventory/${pick()}`,
                    body: `{"quantity":${1 + Math.floor(random() * 100)}}`,
                  }),
                }
              : {
                  method: 'GET',
                  path: '/v1/inventory/1',
                  headers,
                  setupRequest: (req) => ({ ...req, path: `/v1/inventory/${pick()}` }),
                };
        const before = machineTicks();
        const result = await runLoad(
          {
            url: servers.length === 1 ? servers[0].url : (servers.map((s) => s.url) as never),
            connections: opts.connections,
            duration: seconds,
            requests: [request],
          },
          () => servers.reduce((sum, s) => sum + s.cpuMicros(), 0),
        );
        const after = machineTicks();
        (busy[`${kind}/${name}`] ??= []).push(
          (after.busy - before.busy) / (after.total - before.total),
        );
        return result;
      },
    });
    const infoRunner = http(info.name, [info]);
    const warnRunner = http(warn.name, [warn]);
    const oneRunner = http(pgA.name, [pgA]);
    const twoRunner = http('2 instances, PostgreSQL + Redis, info', [pgA, pgB]);
    const floorRunner: Runner = {
      name: floor.name,
      run: (seconds, _kind, seed) => floor!.run(seconds, opts.connections, petIds, seed),
    };
    const plan: [DeployedKind, Runner[]][] = [
      ['GET random pet', [infoRunner, warnRunner, oneRunner, twoRunner]],
      ['GET listing', [infoRunner, warnRunner, oneRunner, twoRunner]],
      ['PATCH random pet', [infoRunner, oneRunner, twoRunner, floorRunner]],
      ['GET hot pet', [infoRunner, oneRunner, twoRunner]],
      ['PATCH hot pet', [infoRunner, oneRunner, twoRunner]],
    ];
    const results: Partial<Record<DeployedKind, Results>> = {};
    // BENCH_DEPLOYED_KINDS (comma-separated) measures some kinds only, and checks nothing.
    const only = process.env.BENCH_DEPLOYED_KINDS?.split(',');
    let seed = 1;
    for (const [kind, runners] of plan) {
      if (only && !only.includes(kind)) continue;
      for (const runner of runners) await runner.run(opts.warmup, kind, seed++);
      const byName: Results = Object.fromEntries(runners.map((runner) => [runner.name, []]));
      for (let r = 0; r < opts.rounds; r++) {
        for (const runner of runners.map((_, i) => runners[(i + r) % runners.length])) {
          const result = await runner.run(opts.duration, kind, seed++);
          byName[runner.name].push(result);
          log(
            `  ${kind} round ${r + 1}/${opts.rounds} ${runner.name.padEnd(38)} ${fmt.rps(result.rps).padStart(7)} req/s  p99 ${fmt.ms(result.p99Ms)}  ${fmt.us(result.cpuUsPerResponse)}/req  ${JSON.stringify(result.statuses)}${result.errors ? ` errors ${result.errors}` : ''}`,
          );
        }
      }
      results[kind] = byName;
      throughputTable(
        `Deployed path: ${kind === 'GET listing' ? `GET /v1/inventory (${DEPLOYED_ITEMS} items)` : `${kind.split(' ')[0]} /v1/inventory/{${kind.includes('hot') ? 'one pet' : `random of ${DEPLOYED_ITEMS} pets`}}`} (${opts.connections} connections)`,
        byName,
        info.name,
      );
    }

    if (only) {
      report.deployed = Object.fromEntries(
        Object.entries(results).map(([kind, byName]) => [kind, summarise(byName!)]),
      );
      return;
    }
    const r = (kind: DeployedKind) => results[kind]!;
    const cpu = (run: LoadResult) => run.cpuUsPerResponse;
    const rps = (run: LoadResult) => run.rps;
    for (const kind of ['GET random pet', 'GET listing'] as const) {
      const logCost = ratio(r(kind), info.name, warn.name, cpu);
      check(
        `Deployed ${kind}: CPU per request, info vs warn`,
        fmt.ratio(logCost),
        '<= 1.10x',
        logCost <= 1.1,
      );
      const pgRps = ratio(r(kind), pgA.name, info.name, rps);
      check(
        `Deployed ${kind}: req/s, PostgreSQL + Redis vs SQLite + memory`,
        fmt.ratio(pgRps),
        '>= 0.8x',
        pgRps >= 0.8,
      );
      const pgCpu = ratio(r(kind), pgA.name, info.name, cpu);
      check(
        `Deployed ${kind}: CPU per request, PostgreSQL + Redis vs SQLite + memory`,
        fmt.ratio(pgCpu),
        '<= 1.3x',
        pgCpu <= 1.3,
      );
    }
    const patch = r('PATCH random pet');
    const patchVsSqlite = ratio(patch, pgA.name, info.name, rps);
    check(
      'Deployed PATCH random pet: req/s, PostgreSQL + Redis vs SQLite + memory',
      fmt.ratio(patchVsSqlite),
      '>= 0.5x',
      patchVsSqlite >= 0.5,
    );
    const patchVsFloor = ratio(patch, pgA.name, floorRunner.name, rps);
    check(
      'Deployed PATCH random pet: req/s, PostgreSQL + Redis vs the node-postgres floor',
      fmt.ratio(patchVsFloor),
      '>= 0.8x',
      patchVsFloor >= 0.8,
    );
    for (const kind of ['GET hot pet', 'PATCH hot pet'] as const) {
      for (const name of [pgA.name, twoRunner.name]) {
        const runs = r(kind)[name];
        const serverErrors = runs.reduce(
          (sum, run) =>
            sum +
            run.errors +
            Object.entries(run.statuses).reduce(
              (n, [status, count]) => n + (Number(status) >= 500 ? count : 0),
              0,
            ),
          0,
        );
        check(
          `Deployed ${kind}, ${name}: 5xx and errors (p99 ${fmt.ms(medianOf(runs, (run) => run.p99Ms))})`,
          String(serverErrors),
          '0',
          serverErrors === 0,
        );
      }
    }
    for (const kind of [
      'GET random pet',
      'GET listing',
      'PATCH random pet',
      'GET hot pet',
      'PATCH hot pet',
    ] as const) {
      const factor = ratio(r(kind), twoRunner.name, pgA.name, rps);
      const cpuBusy = (name: string) =>
        `${Math.round(median(busy[`${kind}/${name}`] ?? []) * 100)}%`;
      check(
        `Deployed ${kind}: two instances vs one, req/s (machine CPU busy ${cpuBusy(pgA.name)} with one, ${cpuBusy(twoRunner.name)} with two)`,
        fmt.ratio(factor),
        '> 1.0x',
        factor > 1,
      );
    }
    const other = (kind: DeployedKind, ok: (status: number) => boolean) =>
      failures(Object.values(r(kind)).flat(), ok);
    const not200 = (
      ['GET random pet', 'GET listing', 'PATCH random pet', 'GET hot pet', 'PATCH hot pet'] as const
    ).reduce((sum, kind) => sum + other(kind, (status) => status === 200), 0);
    check(
      'Deployed: non-200 responses and errors, every target',
      String(not200),
      '0',
      not200 === 0,
    );
    report.deployed = {
      items: DEPLOYED_ITEMS,
      hotPet: hot,
      poolSize: 10,
      machineBusy: busy,
      ...Object.fromEntries(
        Object.entries(results).map(([kind, byName]) => [kind, summarise(byName!)]),
      ),
    };
  } finally {
    await floor?.stop();
    await stop(...targets);
    await dropDatabase(opts.postgresUrl, dbName).catch((err: Error) =>
      log(`deployed: could not drop ${dbName}: ${err.message}`),
    );
    await deleteRedisKeys(opts.redisUrl!, redisPrefix).catch((err: Error) =>
      log(`deployed: could not clear ${redisPrefix}*: ${err.message}`),
    );
  }
}

function gitDescribe(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    // The results file is what a run rewrites: it does not make the code under test differ.
    const status = ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results'];
    const dirty =
      execFileSync('git', status, {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  if (!existsSync(SERVICE))
    throw new Error('dist/main.js is missing: run npm run build first (npm run bench does)');
  const started = new Date();
  const load = loadavg();
  log(
    `bench: ${options.rounds} rounds x ${options.duration} s per target, ${options.connections} connections; ${pinning.description}`,
  );
  const underLoad = [...options.scenarios].some((scenario) => scenario !== 'instructions');
  if (['get', 'patch', 'soak'].some((s) => options.scenarios.has(s as never)))
    await smallCatalogue(options);
  if (options.scenarios.has('large')) await largeCatalogue(options);
  if (options.scenarios.has('sync')) await syncCatalogue(options);
  if (options.scenarios.has('abuse')) await abuse(options);
  if (options.scenarios.has('storm'))
    await storm(options, { work, service: SERVICE, start, stop, check, log, report });
  if (options.scenarios.has('deployed')) await deployedPath(options);
  if (options.scenarios.has('webhooks'))
    await webhooksScenario({
      options,
      work,
      service,
      start,
      stop,
      alternate,
      patchRequest,
      throughputTable,
      ratio,
      check,
      tables,
      report,
      log,
    });
  if (options.scenarios.has('instructions')) await instructionCounts(options);
  if (options.scenarios.has('adjust') || options.scenarios.has('bursts'))
    await adjustScenario(
      { options, work, service: SERVICE, start, stop, check, tables, report, log },
      options.scenarios.has('adjust') ? undefined : 'bursts',
    );
  if (options.scenarios.has('holds'))
    await holdsScenario({
      options,
      work,
      service: SERVICE,
      start,
      stop,
      check,
      tables,
      report,
      log,
    });
  if (options.scenarios.has('tracing'))
    await tracingScenario({
      options,
      work,
      service,
      start,
      stop,
      alternate,
      throughputTable,
      ratio,
      failures,
      summarise,
      check,
      tables,
      report,
      log,
    });

  if (options.scenarios.has('redis'))
    await redisTopologiesScenario({
      options,
      work,
      service,
      start,
      stop,
      alternate,
      throughputTable,
      ratio,
      failures,
      summarise,
      check,
      tables,
      report,
      log,
    });

  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}, ${fmt.mib(totalmem())} RAM, Node ${process.version}`;
  const header =
    `Run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ${pinning.description}; ` +
    `load average at start ${load.map((n) => n.toFixed(2)).join(' ')}. ` +
    (underLoad
      ? `${options.rounds} rounds x ${options.duration} s per target, medians over rounds; ratios are medians of per-round ratios.`
      : 'Instruction counts only.');
  const checkTable = markdownTable(
    ['check', 'measured', 'goal', 'met'],
    checks.map((c) => [c.name, c.value, c.goal, c.met ? 'yes' : 'NO']),
  );
  process.stdout.write(`\n${header}\n\n${tables.join('\n\n')}\n\n${checkTable}\n`);

  const out = resolve(options.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ date: started.toISOString(), commit: gitDescribe(), machine, pinning: pinning.description, loadAverageAtStart: load, options: { ...options, scenarios: [...options.scenarios] }, checks, ...report }, null, 2)}\n`,
  );
  log(`results written to ${out}`);
}

async function cleanUp(): Promise<void> {
  await Promise.all([...running].map((target) => target.stop()));
  rmSync(work, { recursive: true, force: true });
}

process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
try {
  await main();
  await cleanUp();
} catch (err) {
  log(`bench failed: ${(err as Error).stack ?? String(err)}`);
  log(`server logs kept in ${work}`);
  await Promise.all([...running].map((target) => target.stop()));
  process.exitCode = 1;
}
