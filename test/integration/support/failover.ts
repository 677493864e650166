import { afterAll, beforeAll, expect } from 'vitest';
import {
  createKeyWithCli,
  type Instance,
  send,
  sleep,
  spawnReady,
  stopAll,
  uniqueSuffix,
  unlimitedKey,
  waitFor,
} from './cluster.js';
import { type IntegrationContext, migratedDatabase, type TestDatabase } from './context.js';
import { freePort } from '../../support/built-server.js';
import {
  Load,
  metric,
  outcome,
  printReport,
  type Sample,
  tally,
  unavailableProblems,
} from './load.js';

/** Long enough that a busy two-core machine does not time out a healthy Redis. */
export const COMMAND_TIMEOUT_MS = 1000;
/** One connection attempt: the service waits max(1000, REDIS_COMMAND_TIMEOUT_MS) for one. */
const CONNECT_ATTEMPT_MS = Math.max(1000, COMMAND_TIMEOUT_MS);
/** What a request may take beyond that: the rest of the request on a loaded machine. */
const SLACK_MS = 1500;
/** The contract: every instance counts again within 10 s of the promotion. */
export const FOLLOW_BOUND_MS = 10_000;
const DAY_LIMIT = 30;
const OVER = 6;
const LOOPS_PER_INSTANCE = 2;

export interface Topology {
  /** The settings naming the topology (REDIS_SENTINELS …, or REDIS_CLUSTER_NODES). */
  env: Record<string, string>;
  /**
   * SIGKILLs the master holding `hashTag`'s keys; resolves with the promotion's time (Date.now())
   * once a replica has taken over, as the topology itself announces it.
   */
  killMaster(hashTag: string): Promise<{ promoted: Promise<number> }>;
  /** Stops every server of the topology. */
  stop(): Promise<void>;
}

export interface FailoverRun {
  closed: Instance;
  open: Instance;
  database: TestDatabase;
  metricsPorts: Map<Instance, number>;
  env: Record<string, string>;
}

/**
 * Two instances on a migrated database of their own and the Redis `redisEnv` names, one failing
 * closed and one failing open, each with its metrics port.
 */
export async function startInstances(
  context: IntegrationContext,
  label: string,
  redisEnv: Record<string, string>,
): Promise<FailoverRun> {
  const database = await migratedDatabase(context, label);
  const env = {
    APP_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_KEY_PREFIX: `${context.redisKeyPrefix}${label}_${uniqueSuffix()}:`,
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    ...redisEnv,
  };
  const ports = [await freePort(), await freePort()];
  const [closed, open] = await spawnReady(database.name, ['closed', 'open'], (i) => ({
    ...env,
    RATE_LIMIT_FAIL_OPEN: i === 0 ? 'false' : 'true',
    METRICS_PORT: String(ports[i]),
  }));
  const metricsPorts = new Map([
    [closed, ports[0]],
    [open, ports[1]],
  ]);
  return { closed, open, database, metricsPorts, env };
}

export async function stopInstances(run: FailoverRun | undefined): Promise<void> {
  if (!run) return;
  await stopAll([run.closed, run.open]);
  await run.database.drop();
}

/**
 * Starts `topology` and the two instances on it before all tests of the enclosing describe, and
 * stops both after them.
 */
export function failoverSuite(
  context: IntegrationContext,
  label: string,
  startTopology: () => Promise<Topology>,
): { readonly run: FailoverRun; readonly topology: Topology } {
  let topology: Topology | undefined;
  let run: FailoverRun | undefined;
  beforeAll(async () => {
    topology = await startTopology();
    run = await startInstances(context, label, topology.env);
  }, 120_000);
  afterAll(async () => {
    await stopInstances(run);
    await topology?.stop();
  });
  return {
    get run() {
      return run!;
    },
    get topology() {
      return topology!;
    },
  };
}

/** A key whose day allows `DAY_LIMIT` requests (minute windows roll over mid-test; days do not). */
export function dayLimitedKey(env: Record<string, string>) {
  return createKeyWithCli(env, [
    '--plan',
    'enterprise',
    '--per-minute',
    '100000',
    '--per-day',
    String(DAY_LIMIT),
  ]);
}

/**
 * `DAY_LIMIT + OVER` concurrent requests of each key, all at once, spread over both instances:
 * exactly the limit of each gets through.
 */
export async function expectExactLimit(run: FailoverRun, ...keys: string[]): Promise<void> {
  const replies = await Promise.all(
    keys.map((key) =>
      Promise.all(
        Array.from({ length: DAY_LIMIT + OVER }, (_, i) =>
          send(i % 2 === 0 ? run.closed : run.open, 'GET', '/v1/inventory', { key }),
        ),
      ),
    ),
  );
  for (const ofKey of replies)
    expect(ofKey.map((reply) => `${reply.status}`).sort()).toEqual([
      ...Array<string>(DAY_LIMIT).fill('200'),
      ...Array<string>(OVER).fill('429'),
    ]);
}

/** Counted: a 200 that carries the caller's remaining count (failing open serves without it). */
const counted = (sample: Sample) =>
  sample.status === 200 && sample.reply?.headers['x-ratelimit-remaining'] !== undefined;

/**
 * The contract's failover, end to end: exact limits across both instances, a request loop on each
 * (one failing closed, one open), SIGKILL of the master under it, both counting again within
 * 10 s of the promotion, and exact limits on the new master.
 */
export async function failoverUnderLoad(
  run: FailoverRun,
  topology: Topology,
  description: string,
): Promise<void> {
  const { closed, open } = run;
  const load_ = await unlimitedKey(run.env);
  const before = await dayLimitedKey(run.env);
  const after = await dayLimitedKey(run.env);
  const failovers = () =>
    Promise.all(
      [closed, open].map((i) => metric(run.metricsPorts.get(i)!, 'petstore_redis_failovers_total')),
    );

  await expectExactLimit(run, before.key);
  expect(await failovers()).toEqual([0, 0]);

  const load = new Load();
  for (const instance of [closed, open])
    for (let n = 0; n < LOOPS_PER_INSTANCE; n++)
      load.loop(instance, () => ({ method: 'GET', path: '/v1/inventory', key: load_.key }), {
        timeoutMs: 15_000,
      });
  let killedAt: number | undefined;
  let promotedAt = 0;
  const readyWhileDown: { status: number; body: unknown }[] = [];
  const resumedAt = new Map<string, number>();
  try {
    await waitFor(async () => load.samples.filter(counted).length >= 20);
    const { promoted } = await topology.killMaster(`key:${load_.id}`);
    killedAt = load.now();
    // Readiness while no master answers, asked until the promotion (its result may be 1 s old).
    let promotedYet = false;
    const promotion = promoted.then((at) => {
      promotedYet = true;
      return at;
    });
    while (!promotedYet) {
      const reply = await send(closed, 'GET', '/health/ready');
      if (!promotedYet) readyWhileDown.push({ status: reply.status, body: reply.body });
      await sleep(100);
    }
    promotedAt = (await promotion) - (Date.now() - load.now());
    // Both count again within the contract's bound, measured from the promotion.
    await waitFor(
      async () => {
        for (const instance of [closed, open]) {
          const first = load.samples.find(
            (s) => s.instance === instance.name && s.start >= promotedAt && counted(s),
          );
          if (first && !resumedAt.has(instance.name)) resumedAt.set(instance.name, first.end);
        }
        return resumedAt.size === 2;
      },
      Math.max(0, promotedAt + FOLLOW_BOUND_MS - load.now()),
    ).catch((err: Error) => {
      const since = (instance: Instance) =>
        tally(
          load.samples
            .filter((s) => s.instance === instance.name && s.start >= promotedAt)
            .map((s) => (counted(s) ? { ...s, status: 299 } : s)),
        );
      throw new Error(
        `${err.message}: not counting again within ${FOLLOW_BOUND_MS} ms of the promotion; since then ${JSON.stringify({ closed: since(closed), open: since(open) })}\n${[
          closed,
          open,
        ]
          .map((i) =>
            i
              .log()
              .split('\n')
              .filter((l) => /RedisRateLimit|Redis /.test(l))
              .join('\n'),
          )
          .join('\n---\n')}`,
      );
    });
    await sleep(1000);
  } finally {
    await load.stop();
  }

  // Never a 500 or an unanswered request; failing closed gives 200 or a proper 503, failing
  // open always 200; nobody waits beyond the command timeout plus one connection attempt.
  for (const sample of load.samples) {
    expect(sample.status, outcome(sample)).not.toBe(0);
    expect(sample.end - sample.start, `${sample.instance} ${outcome(sample)}`).toBeLessThan(
      COMMAND_TIMEOUT_MS + CONNECT_ATTEMPT_MS + SLACK_MS,
    );
  }
  const closedSamples = load.samples.filter((s) => s.instance === closed.name);
  const openSamples = load.samples.filter((s) => s.instance === open.name);
  for (const sample of closedSamples) {
    expect([200, 503], outcome(sample)).toContain(sample.status);
    if (sample.status === 503) expect(unavailableProblems(sample)).toEqual([]);
  }
  expect(tally(openSamples)).toEqual({ '200': openSamples.length });

  // Once counting again, it kept counting on both.
  for (const instance of [closed, open]) {
    const later = load.samples.filter(
      (s) => s.instance === instance.name && s.start > resumedAt.get(instance.name)! + 500,
    );
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((s) => !counted(s)).map(outcome)).toEqual([]);
  }

  // Readiness named Redis while no master answered.
  expect(readyWhileDown).toContainEqual({
    status: 503,
    body: expect.objectContaining({ message: 'Not ready: redis unavailable' }),
  });

  // The new master counts for both instances as one: each request takes exactly one.
  let remaining: number | undefined;
  for (let i = 0; i < 6; i++) {
    const reply = await send(i % 2 === 0 ? closed : open, 'GET', '/v1/inventory', {
      key: load_.key,
    });
    expect(reply.status).toBe(200);
    const now = Number(reply.headers['x-ratelimit-remaining']);
    if (remaining !== undefined) expect(now).toBe(remaining - 1);
    remaining = now;
  }
  await expectExactLimit(run, after.key);
  await waitFor(async () => (await failovers()).every((count) => count === 1), 5000);

  printReport(description, {
    'requests sent': load.samples.length,
    'answers failing closed': tally(closedSamples),
    'answers failing open': tally(openSamples),
    'served uncounted (failing open)': openSamples.filter((s) => !counted(s)).length,
    'promotion after SIGKILL (ms)': Math.round(promotedAt - killedAt!),
    'counting again after promotion, failing closed (ms)': Math.round(
      resumedAt.get(closed.name)! - promotedAt,
    ),
    'counting again after promotion, failing open (ms)': Math.round(
      resumedAt.get(open.name)! - promotedAt,
    ),
    'slowest answer (ms)': Math.max(...load.samples.map((s) => s.end - s.start)),
  });
}
