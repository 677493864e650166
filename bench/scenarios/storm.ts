import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { makeCatalog, mulberry32, prepareAt, serviceEnv, writeCatalog } from '../lib/fixtures.js';
import { runLoad, timedRequest, type TimedResponse } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import {
  createDatabase,
  deleteRedisKeys,
  dropDatabase,
  postgresReachable,
} from '../lib/postgres.js';
import type { Target, TargetSpec } from '../lib/servers.js';
import { percentile, round } from '../lib/stats.js';
import { sleep } from '../lib/system.js';

/** What the scenario needs of the runner. */
export interface StormRunner {
  work: string;
  service: string;
  start(spec: TargetSpec): Promise<Target>;
  stop(...targets: Target[]): Promise<void>;
  check(name: string, value: string, goal: string, met: boolean): void;
  log(line: string): void;
  report: Record<string, unknown>;
}

const STORM = 400;
const HONEST_WORKERS = 4;
const CACHE_TTL_MS = 5_000;
/** An address's lookups of unknown keys a minute (docs/security.md). */
const LOOKUP_BUDGET = 60;
const STORM_ADDRESS = '203.0.113.9';
const HONEST_ADDRESS = '198.51.100.1';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** seq_scan + idx_scan of api_keys, once the statistics of every backend have reached the view. */
async function apiKeysLookups(databaseUrl: string): Promise<number> {
  // Backends flush their table statistics when idle, at most every 10 s (PostgreSQL 15+).
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

/** The honest client: a few workers reading in a loop until `until` resolves. */
async function readUntil(
  svc: Target,
  headers: Record<string, string>,
  until: Promise<unknown>,
): Promise<TimedResponse[]> {
  let done = false;
  void until.finally(() => (done = true));
  const answers: TimedResponse[] = [];
  await Promise.all(
    Array.from({ length: HONEST_WORKERS }, async () => {
      while (!done) answers.push(await timedRequest(`${svc.url}/v1/inventory`, { headers }));
    }),
  );
  return answers;
}

/**
 * A lookup storm on PostgreSQL + Redis: 400 concurrent requests with random well-formed keys
 * from one address while an honest key on another keeps reading, then a banned valid key at 400
 * concurrent connections. Counts the api_keys lookups each caused (docs/security.md gives the
 * bounds; docs/performance.md keeps the figures).
 */
export async function storm(opts: BenchOptions, run: StormRunner): Promise<void> {
  if (!opts.redisUrl || !(await postgresReachable(opts.postgresUrl))) {
    run.check('Storm: api_keys lookups from 400 random keys', 'not measured', '<= 60', true);
    run.report.storm = 'PostgreSQL or Redis unreachable';
    return;
  }
  const name = `petstore_bench_storm_${process.pid}`;
  const databaseUrl = await createDatabase(opts.postgresUrl, name);
  const redisPrefix = `petstore-bench-storm-${process.pid}:`;
  try {
    const catalog = writeCatalog(run.work, makeCatalog(opts.items));
    const prepared = prepareAt(databaseUrl, catalog);
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
      {
        env: { ...process.env, ...serviceEnv(databaseUrl) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
      .trim()
      .split('\n')
      .at(-1)!
      .trim();
    const svc = await run.start({
      name: 'service under a lookup storm',
      script: run.service,
      env: {
        ...serviceEnv(databaseUrl),
        TRUST_PROXY: '1',
        REDIS_URL: opts.redisUrl,
        REDIS_KEY_PREFIX: redisPrefix,
        API_KEY_CACHE_TTL_MS: String(CACHE_TTL_MS),
        RATE_LIMIT_BAN_SECONDS: '86400',
      },
      readyPath: '/health',
      headers: {},
    });
    try {
      const honest = {
        authorization: `Bearer ${prepared.apiKey}`,
        'x-forwarded-for': HONEST_ADDRESS,
      };
      const quiet = await readUntil(svc, honest, sleep(opts.duration * 1000));
      const random = mulberry32(11);
      const randomKey = () => {
        let secret = '';
        for (let i = 0; i < 40; i++) secret += BASE62[Math.floor(random() * 62)];
        return `pk_live_${secret}`;
      };
      const before = await apiKeysLookups(databaseUrl);
      const stormStarted = Date.now();
      const flood = Promise.all(
        Array.from({ length: STORM }, () =>
          timedRequest(`${svc.url}/v1/inventory`, {
            headers: { authorization: `Bearer ${randomKey()}`, 'x-forwarded-for': STORM_ADDRESS },
          }),
        ),
      );
      const during = await readUntil(svc, honest, flood);
      const storm = await flood;
      const stormMs = Date.now() - stormStarted;
      const lookups = (await apiKeysLookups(databaseUrl)) - before;
      const stormStatuses: Record<string, number> = {};
      for (const res of storm) stormStatuses[res.status] = (stormStatuses[res.status] ?? 0) + 1;
      const failed = during.filter((res) => res.status !== 200).length;
      const p99Quiet = percentile(
        quiet.map((res) => res.ms),
        99,
      );
      const p99Storm = percentile(
        during.map((res) => res.ms),
        99,
      );
      run.log(
        `  storm: ${STORM} random keys ${JSON.stringify(stormStatuses)}, api_keys lookups ${lookups}; honest ${during.length} reads, ${failed} not 200, p99 ${round(p99Storm, 1)} ms vs ${round(p99Quiet, 1)} ms without`,
      );
      // The honest key's own refresh-ahead lookups (one per half TTL while it reads) are in the
      // count too.
      const honestRefreshes = Math.ceil(stormMs / (CACHE_TTL_MS / 2));
      const allowed = LOOKUP_BUDGET + honestRefreshes;
      run.check(
        'Storm: api_keys lookups from 400 concurrent random keys on one address',
        String(lookups),
        `<= ${LOOKUP_BUDGET} (+ ${honestRefreshes} refreshes of the honest key)`,
        lookups <= allowed,
      );
      run.check('Storm: honest client answers other than 200', String(failed), '0', failed === 0);
      run.check(
        'Storm: honest client p99 during the storm vs without',
        `${round(p99Storm / p99Quiet, 2)}x`,
        '<= 3x',
        p99Storm <= 3 * p99Quiet,
      );

      // The banned valid key: used once, then banned, then at 400 concurrent connections.
      const bannedHeaders = {
        authorization: `Bearer ${banned}`,
        'x-forwarded-for': '198.51.100.2',
      };
      for (let i = 0; i < 40; i++)
        await timedRequest(`${svc.url}/v1/inventory`, { headers: bannedHeaders });
      const beforeBanned = await apiKeysLookups(databaseUrl);
      const seconds = Math.max(10, opts.duration * opts.rounds);
      const load = await runLoad({
        url: svc.url,
        connections: STORM,
        duration: seconds,
        requests: [{ method: 'GET', path: '/v1/inventory', headers: bannedHeaders }],
      });
      const bannedLookups = (await apiKeysLookups(databaseUrl)) - beforeBanned;
      // Refreshed once per half TTL while in use; one more where the last refresh straddles the end.
      const bound = Math.ceil((seconds * 1000) / (CACHE_TTL_MS / 2)) + 1;
      run.log(
        `  banned key: ${load.responses} requests in ${seconds} s ${JSON.stringify(load.statuses)}, api_keys lookups ${bannedLookups}`,
      );
      run.check(
        `Storm: api_keys lookups of a banned valid key at 400 connections for ${seconds} s`,
        String(bannedLookups),
        `<= ${bound} (one per cache refresh)`,
        bannedLookups <= bound,
      );
      run.report.storm = {
        randomKeys: STORM,
        statuses: stormStatuses,
        apiKeysLookups: lookups,
        honestReads: during.length,
        honestNot200: failed,
        honestP99Ms: round(p99Storm, 2),
        honestP99QuietMs: round(p99Quiet, 2),
        bannedKey: {
          seconds,
          responses: load.responses,
          statuses: load.statuses,
          apiKeysLookups: bannedLookups,
        },
      };
    } finally {
      await run.stop(svc);
    }
  } finally {
    await dropDatabase(opts.postgresUrl, name).catch(() => undefined);
    await deleteRedisKeys(opts.redisUrl, redisPrefix).catch(() => 0);
  }
}
