import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, type Reply, send, sleep, unlimitedKey } from './support/cluster.js';
import { requireIntegrationContext } from './support/context.js';
import {
  COMMAND_TIMEOUT_MS,
  type FailoverRun,
  startInstances,
  stopInstances,
} from './support/failover.js';
import {
  loggedProblems,
  Load,
  metric,
  outcome,
  printReport,
  type Sample,
  tally,
  unavailableProblems,
} from './support/load.js';
import { TcpProxy } from './support/tcp-proxy.js';

const context = requireIntegrationContext();

/** What a request may take beyond the command timeout: the rest of the request on a loaded machine. */
const SLACK_MS = 1500;
/** Requests that began this soon after a switch may have met either state. */
const SETTLE_MS = 300;
/** The contract: 200s again within a few seconds of Redis returning. */
const RECOVERY_LIMIT_MS = 5000;
const LOOPS_PER_INSTANCE = 4;

interface Phase {
  mode: 'up' | 'down' | 'mute';
  from: number;
  to: number;
}

describe('Redis down, back, and mute under load (integration)', () => {
  let proxy: TcpProxy;
  let run: FailoverRun | undefined;
  let closed: Instance;
  let open: Instance;
  let key: string;

  beforeAll(async () => {
    proxy = await TcpProxy.start(
      new URL(context.redisUrl).hostname,
      Number(new URL(context.redisUrl).port || 6379),
    );
    run = await startInstances(context, 'redis_outage', {
      REDIS_URL: proxy.url(context.redisUrl),
    });
    ({ closed, open } = run);
    ({ key } = await unlimitedKey(run.env));
  }, 90_000);

  afterAll(async () => {
    await stopInstances(run);
    await proxy?.close();
  });

  it('should refuse with 503 and Retry-After while Redis is down or mute when failing closed, serve throughout when failing open, and recover within seconds', async () => {
    const redisErrors = () =>
      Promise.all(
        [closed, open].map((i) => metric(run!.metricsPorts.get(i)!, 'petstore_redis_errors_total')),
      );
    const errorsBefore = await redisErrors();
    const load = new Load();
    const phases: Phase[] = [];
    const switchTo = (mode: Phase['mode']) => {
      const at = load.now();
      if (phases.length > 0) phases[phases.length - 1].to = at;
      phases.push({ mode, from: at, to: Infinity });
      proxy.setMode(mode);
    };
    for (const instance of [closed, open]) {
      for (let n = 0; n < LOOPS_PER_INSTANCE; n++) {
        load.loop(instance, () => ({ method: 'GET', path: '/v1/inventory', key }), {
          timeoutMs: 15_000,
        });
      }
    }

    let readyWhileDown: Reply[] | undefined;
    const recovered: { afterMs: number; steadyFrom: number }[] = [];
    try {
      switchTo('up');
      await sleep(1500);
      switchTo('down');
      await sleep(1000);
      readyWhileDown = await Promise.all(
        [closed, open].map((i) => send(i, 'GET', '/health/ready')),
      );
      await sleep(2000);
      switchTo('up');
      // Recovered: the fail-closed instance serves a request that began after Redis returned.
      recovered.push(await load.recovery([closed.name], load.now(), RECOVERY_LIMIT_MS + 5000));
      await sleep(1500);
      switchTo('mute');
      await sleep(4000);
      switchTo('up');
      recovered.push(await load.recovery([closed.name], load.now(), RECOVERY_LIMIT_MS + 5000));
      await sleep(1500);
    } finally {
      await load.stop();
      proxy.setMode('up');
    }

    /** The phase a request ran in, or undefined when it straddled a switch. */
    const phaseOf = (sample: Sample) =>
      phases.find((phase) => sample.start >= phase.from + SETTLE_MS && sample.end <= phase.to)
        ?.mode;
    const byInstance = (instance: Instance) =>
      load.samples.filter((s) => s.instance === instance.name);

    // Answered, every one, and never slower than the command timeout allows.
    for (const sample of load.samples) {
      expect(sample.status, outcome(sample)).not.toBe(0);
      expect(sample.end - sample.start, `${sample.instance} ${outcome(sample)}`).toBeLessThan(
        COMMAND_TIMEOUT_MS + SLACK_MS,
      );
    }

    // Failing closed: 200 or a proper 503, never anything else; 503 throughout the outage.
    const closedSamples = byInstance(closed);
    for (const sample of closedSamples) {
      expect([200, 503], outcome(sample)).toContain(sample.status);
      if (sample.status === 503) expect(unavailableProblems(sample)).toEqual([]);
    }
    const closedIn = (mode: Phase['mode']) =>
      closedSamples.filter((sample) => phaseOf(sample) === mode);
    expect(tally(closedIn('down'))).toEqual({
      '503 service_unavailable': closedIn('down').length,
    });
    expect(tally(closedIn('mute'))).toEqual({
      '503 service_unavailable': closedIn('mute').length,
    });
    expect(closedIn('down').length).toBeGreaterThan(0);
    expect(closedIn('mute').length).toBeGreaterThan(0);
    // A mute Redis is waited for as long as the command timeout, no shorter.
    for (const sample of closedIn('mute'))
      expect(sample.end - sample.start).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
    for (const { afterMs } of recovered) expect(afterMs).toBeLessThan(RECOVERY_LIMIT_MS);
    // Once it served again, it kept serving: every request begun later in that phase got a 200.
    const recoveredUps = phases.filter((phase) => phase.mode === 'up').slice(1);
    const afterRecovery = closedSamples.filter((sample) =>
      recoveredUps.some(
        (phase, i) => sample.start >= recovered[i].steadyFrom && sample.end <= phase.to,
      ),
    );
    expect(afterRecovery.length).toBeGreaterThan(0);
    expect(tally(afterRecovery)).toEqual({ '200': afterRecovery.length });
    expect(tally(closedIn('up').filter((s) => s.start < phases[1].from))).toEqual({
      '200': closedIn('up').filter((s) => s.start < phases[1].from).length,
    });

    // Readiness says why: not ready when failing closed, still ready (degraded) when failing open.
    const [closedReady, openReady] = readyWhileDown!;
    expect(closedReady.status).toBe(503);
    expect(unavailableProblems({ status: 503, reply: closedReady } as Sample)).toEqual([]);
    expect(closedReady.body).toMatchObject({ message: 'Not ready: redis unavailable' });
    expect(openReady.status).toBe(200);
    expect(openReady.body).toMatchObject({ info: { redis: { status: 'degraded' } } });

    // Failing open: served throughout.
    const openSamples = byInstance(open);
    expect(tally(openSamples)).toEqual({ '200': openSamples.length });
    const openIn = (mode: Phase['mode']) => openSamples.filter((s) => phaseOf(s) === mode);
    expect(openIn('down').length).toBeGreaterThan(0);
    expect(openIn('mute').length).toBeGreaterThan(0);
    // Served uncounted while Redis was away: the policy is advertised, the unknown counts are not.
    const uncounted = openSamples.filter(
      (s) => s.reply!.headers['x-ratelimit-remaining'] === undefined,
    );
    for (const sample of [...openIn('down'), ...openIn('mute')]) {
      expect(uncounted).toContain(sample);
      expect(sample.reply!.headers['ratelimit-policy']).toBeDefined();
    }

    // Operators see each request that met an unavailable Redis in petstore_redis_errors_total.
    const errorsAfter = await redisErrors();
    expect(errorsAfter[0] - errorsBefore[0]).toBe(
      closedSamples.filter((s) => s.status === 503).length,
    );
    expect(errorsAfter[1] - errorsBefore[1]).toBe(uncounted.length);

    // Each outage is logged, not once per request; nothing else is a problem.
    for (const instance of [closed, open]) {
      const { 'WARN Redis for rate limiting does not answer': outages, ...others } = loggedProblems(
        instance.log(),
      );
      // Both outages, and not once per request: a reconnect that flaps while the relay is down
      // may log the loss once more.
      expect(outages).toBeGreaterThanOrEqual(2);
      expect(outages).toBeLessThanOrEqual(4);
      expect(
        Object.keys(others).filter((kind) => !kind.startsWith('ERROR Health Check has failed!')),
      ).toEqual([]);
    }
    for (const [instance, samples] of [
      [closed, closedSamples],
      [open, openSamples],
    ] as const) {
      printReport(
        `Redis down 3 s, then mute 4 s; ${LOOPS_PER_INSTANCE} loops of GET /v1/inventory, RATE_LIMIT_FAIL_OPEN=${instance === open}`,
        {
          'requests sent': samples.length,
          'requests answered': samples.filter((s) => s.status !== 0).length,
          'faults survived': '1 outage (connections reset, reconnects refused) + 1 freeze',
          'answers while down': tally(samples.filter((s) => phaseOf(s) === 'down')),
          'answers while mute': tally(samples.filter((s) => phaseOf(s) === 'mute')),
          'slowest answer while mute (ms)': Math.max(
            ...samples.filter((s) => phaseOf(s) === 'mute').map((s) => s.end - s.start),
          ),
          ...(instance === closed
            ? {
                'first 200 after Redis returned (ms)': recovered[0].afterMs,
                'first 200 after Redis unfroze (ms)': recovered[1].afterMs,
              }
            : {}),
          ...(instance === open ? { 'served uncounted': uncounted.length } : {}),
          'requests lost (no answer, or not 200/503)': samples.filter(
            (s) => s.status !== 200 && s.status !== 503,
          ).length,
        },
      );
    }
  }, 60_000);
});
