import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { makeCatalog, prepareDatabase, serviceEnv, writeCatalog } from '../lib/fixtures.js';
import type { LoadResult } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { fmt, markdownTable } from '../lib/report.js';
import { spawnScript, type Target, type TargetSpec } from '../lib/servers.js';
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

// Its own process, so the load generator's event loop never delays its answers (each delivery
// waits for the answer to the one before).
const RECEIVER = `
const http = require('node:http');
let lags = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const at = /"changedAt":"([^"]+)"\\}\\}$/.exec(body);
    if (at) lags.push(Date.now() - Date.parse(at[1]));
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'count') process.send({ count: lags.length });
  if (message === 'reset') lags = [];
  if (message === 'lags') process.send({ lags });
});
`;

interface LagReceiver {
  url: string;
  count(): Promise<number>;
  reset(): void;
  lags(): Promise<number[]>;
  close(): void;
}

/** A receiver that accepts everything and notes, per message, how long after its commit it came. */
async function lagReceiver(): Promise<LagReceiver> {
  const receiver = spawnScript(RECEIVER);
  const port = await receiver.next<number>('port');
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => (receiver.send('count'), receiver.next<number>('count')),
    reset: () => receiver.send('reset'),
    lags: () => (receiver.send('lags'), receiver.next<number[]>('lags')),
    close: () => receiver.close(),
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
    for (let seen = -1, waited = 0; waited < 300; waited++) {
      const count = await receiver.count();
      if (count === seen) break;
      seen = count;
      await sleep(1000);
    }
    receiver.reset();
    const duration = Math.max(5, options.duration * options.rounds);
    log(`  webhooks: ${RATE} changes/s for ${duration} s`);
    await autocannon({
      url: withEndpoint.url,
      connections: 8,
      duration,
      overallRate: RATE,
      requests: [bench.patchRequest(withEndpoint, petIds, 7)],
    });
    const received = await receiver.lags();
    const lags = received.slice(Math.floor(received.length / 10));
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
    receiver.close();
  }
}
