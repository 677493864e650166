import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { makeCatalog, prepareDatabase, serviceEnv, writeCatalog } from '../lib/fixtures.js';
import type { LoadResult } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { fmt, markdownTable } from '../lib/report.js';
import type { Target, TargetSpec } from '../lib/servers.js';
import { percentile } from '../lib/stats.js';
import { sleep } from '../lib/system.js';

type Results = Record<string, LoadResult[]>;

/** What the scenario borrows from bench/run.ts. */
export interface WebhooksBench {
  options: BenchOptions;
  work: string;
  service(
    name: string,
    databaseUrl: string,
    apiKey: string,
    env?: Record<string, string>,
  ): TargetSpec;
  start(spec: TargetSpec): Promise<Target>;
  stop(...targets: Target[]): Promise<void>;
  alternate(
    label: string,
    targets: Target[],
    requests: (t: Target) => autocannon.Request[],
  ): Promise<Results>;
  patchRequest(target: Target, petIds: number[], seed: number): autocannon.Request;
  throughputTable(title: string, results: Results, reference: string): void;
  ratio(results: Results, a: string, b: string, pick: (run: LoadResult) => number): number;
  check(name: string, value: string, goal: string, met: boolean): void;
  tables: string[];
  report: Record<string, unknown>;
  log(line: string): void;
}

/** Changes a second in the lag measurement: a busy store, well below the PATCH ceiling. */
const RATE = 500;
const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };
const CHANGED_AT = /"changedAt":"([^"]+)"\}\}$/;

/** A receiver that accepts everything and notes, per message, how long after its commit it came. */
async function lagReceiver(): Promise<{ url: string; lags: number[]; close(): Promise<void> }> {
  const lags: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const at = CHANGED_AT.exec(body)?.[1];
      if (at) lags.push(Date.now() - Date.parse(at));
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    lags,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * One endpoint on a local receiver: PATCH throughput with and without it (alternating rounds),
 * then the delay from commit to delivery at RATE changes a second.
 */
export async function webhooksScenario(bench: WebhooksBench): Promise<void> {
  const { options, log } = bench;
  const rows = makeCatalog(options.items);
  const catalog = writeCatalog(bench.work, rows);
  const petIds = rows.map((row) => row.petId);
  const plain = prepareDatabase(bench.work, 'webhooks-off', catalog);
  const hooked = prepareDatabase(bench.work, 'webhooks-on', catalog);
  const receiver = await lagReceiver();
  execFileSync(process.execPath, ['dist/cli/cli.js', 'webhooks', 'add', receiver.url], {
    env: { ...process.env, ...serviceEnv(hooked.databaseUrl), ...WEBHOOK_ENV },
    stdio: 'ignore',
  });

  const without = await bench.start(
    bench.service('service, no webhook', plain.databaseUrl, plain.apiKey, WEBHOOK_ENV),
  );
  const withEndpoint = await bench.start(
    bench.service('service, one webhook', hooked.databaseUrl, hooked.apiKey, WEBHOOK_ENV),
  );
  try {
    let seed = 1;
    const results = await bench.alternate('PATCH webhooks', [without, withEndpoint], (target) => [
      bench.patchRequest(target, petIds, seed++),
    ]);
    bench.throughputTable(
      `PATCH /v1/inventory/{random petId} with and without a webhook endpoint (${options.connections} connections)`,
      results,
      without.name,
    );
    const throughput = bench.ratio(results, withEndpoint.name, without.name, (run) => run.rps);
    bench.check(
      'Webhooks: PATCH throughput with one endpoint vs none',
      fmt.ratio(throughput),
      '>= 0.9x',
      throughput >= 0.9,
    );

    // The saturated rounds left a backlog; the lag is measured on changes made after it drained.
    log('  webhooks: waiting for the backlog to drain');
    for (let seen = -1, waited = 0; seen !== receiver.lags.length && waited < 300; waited++) {
      seen = receiver.lags.length;
      await sleep(1000);
    }
    receiver.lags.length = 0;
    const duration = Math.max(5, options.duration * options.rounds);
    log(`  webhooks: ${RATE} changes/s for ${duration} s`);
    await autocannon({
      url: withEndpoint.url,
      connections: 8,
      duration,
      overallRate: RATE,
      requests: [bench.patchRequest(withEndpoint, petIds, 7)],
    });
    const lags = receiver.lags.slice(Math.floor(receiver.lags.length / 10));
    const p50 = percentile(lags, 50);
    const p99 = percentile(lags, 99);
    bench.tables.push(
      `Webhook delivery at ${RATE} changes/s (commit to receipt, first 10% left out)\n\n` +
        markdownTable(
          ['messages', 'p50', 'p99', 'max'],
          [[String(lags.length), fmt.ms(p50), fmt.ms(p99), fmt.ms(Math.max(...lags))]],
        ),
    );
    bench.check(
      'Webhooks: delivery lag p99 at 500 changes/s',
      fmt.ms(p99),
      '<= 1000 ms',
      p99 <= 1000,
    );
    bench.report.webhooks = {
      throughputRatio: throughput,
      lagP50Ms: p50,
      lagP99Ms: p99,
      messages: lags.length,
    };
  } finally {
    await bench.stop(without, withEndpoint);
    await receiver.close();
  }
}
