import type autocannon from 'autocannon';
import { makeCatalog, mulberry32, prepareDatabase, writeCatalog } from '../lib/fixtures.js';
import type { LoadResult } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { fmt, markdownTable } from '../lib/report.js';
import { spawnScript, type Target, type TargetSpec } from '../lib/servers.js';
import { sleep } from '../lib/system.js';

type Results = Record<string, LoadResult[]>;

/** What the scenario borrows from bench/run.ts. */
export interface TracingBench {
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
  throughputTable(title: string, results: Results, reference: string): void;
  ratio(results: Results, a: string, b: string, pick: (run: LoadResult) => number): number;
  failures(runs: LoadResult[], ok: (status: number) => boolean): number;
  summarise(results: Results): Record<string, unknown>;
  check(name: string, value: string, goal: string, met: boolean): void;
  tables: string[];
  report: Record<string, unknown>;
  log(line: string): void;
}

/** The bound: a traced GET costs at most this much server CPU of an untraced one. */
const CPU_BOUND = 1.5;
const UNSET = 'untraced (no OTEL_ variable)';
const OFF = 'OTEL_SDK_DISABLED=true';
const ON = 'traced, exporting';

// An OTLP/HTTP endpoint in its own process (so on the load generator's CPU, not the servers'):
// answers every export 200 and counts the spans by the resource's service.name, and the server
// spans among them (one per traced request). The service exports protobuf by default, JSON when
// OTEL_EXPORTER_OTLP_PROTOCOL says so: both are read (protobuf by a walk of the few fields of
// opentelemetry-proto's trace.proto counted here).
const RECEIVER = `
const http = require('node:http');
const counts = {};
function fields(buf) {
  const out = [];
  let i = 0;
  const varint = () => { let r = 0, m = 1, b; do { b = buf[i++]; r += (b & 0x7f) * m; m *= 128; } while (b & 0x80); return r; };
  while (i < buf.length) {
    const tag = varint(), number = Math.floor(tag / 8), wire = tag & 7;
    if (wire === 0) out.push([number, varint()]);
    else if (wire === 1) { out.push([number, null]); i += 8; }
    else if (wire === 5) { out.push([number, null]); i += 4; }
    else if (wire === 2) { const n = varint(); out.push([number, buf.subarray(i, i + n)]); i += n; }
    else throw new Error('wire type ' + wire);
  }
  return out;
}
const all = (buf, n) => fields(buf).filter(([f]) => f === n).map(([, v]) => v);
const text = (buf, n) => (buf && all(buf, n)[0]?.toString()) ?? undefined;
function fromProtobuf(buf) {
  return all(buf, 1).map((rs) => ({
    resource: { attributes: all(all(rs, 1)[0] ?? Buffer.alloc(0), 1).map((kv) => ({ key: text(kv, 1), value: { stringValue: text(all(kv, 2)[0], 1) } })) },
    scopeSpans: all(rs, 2).map((ss) => ({
      scope: { name: text(all(ss, 1)[0], 1) },
      spans: all(ss, 2).map((span) => ({ kind: all(span, 6)[0] ?? 0 })),
    })),
  }));
}
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
    const protobuf = req.headers['content-type'] === 'application/x-protobuf';
    try {
      const body = Buffer.concat(chunks);
      for (const { resource, scopeSpans } of (protobuf ? fromProtobuf(body) : JSON.parse(body).resourceSpans) ?? []) {
        const name = resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '?';
        const count = (counts[name] ??= { spans: 0, server: 0, scopes: {} });
        for (const { scope, spans } of scopeSpans ?? [])
          for (const span of spans ?? []) {
            count.spans++;
            if (span.kind === 2) count.server++;
            count.scopes[scope?.name] = (count.scopes[scope?.name] ?? 0) + 1;
          }
      }
    } catch {
      return res.writeHead(400).end();
    }
    if (protobuf) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', () => process.send({ counts }));
`;

interface Counted {
  spans: number;
  server: number;
  /** Spans by instrumentation scope. */
  scopes: Record<string, number>;
}
type SpanCounts = Record<string, Counted>;

interface SpanReceiver {
  url: string;
  counts(): Promise<SpanCounts>;
  close(): void;
}

async function spanReceiver(): Promise<SpanReceiver> {
  const receiver = spawnScript(RECEIVER);
  const port = await receiver.next<number>('port');
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => (receiver.send('counts'), receiver.next<SpanCounts>('counts')),
    close: () => receiver.close(),
  };
}

/** The counts once the batch processor's last scheduled export (every 5 s by default) has come. */
async function settledCounts(receiver: SpanReceiver): Promise<SpanCounts> {
  let last = JSON.stringify(await receiver.counts());
  for (let i = 0; i < 30; i++) {
    await sleep(6000);
    const now = await receiver.counts();
    if (JSON.stringify(now) === last) return now;
    last = JSON.stringify(now);
  }
  return JSON.parse(last) as SpanCounts;
}

/**
 * The same production build three ways, on copies of one catalogue: with no OpenTelemetry
 * variable, with an endpoint but OTEL_SDK_DISABLED=true (src/tracing/trace-context.ts: nothing
 * is loaded either way), and exporting every request's spans to a local OTLP/HTTP receiver;
 * `GET` of a random pet and of the listing, alternating rounds.
 */
export async function tracingScenario(bench: TracingBench): Promise<void> {
  const { options, log } = bench;
  const rows = makeCatalog(options.items);
  const catalog = writeCatalog(bench.work, rows);
  const petIds = rows.map((row) => row.petId);
  const receiver = await spanReceiver();
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
  const databases = ['tracing-unset', 'tracing-off', 'tracing-on'].map((label) =>
    prepareDatabase(bench.work, label, catalog),
  );
  const specs: [string, Record<string, string>][] = [
    [UNSET, {}],
    [OFF, { ...endpoint, OTEL_SDK_DISABLED: 'true', OTEL_SERVICE_NAME: 'bench-off' }],
    [ON, { ...endpoint, OTEL_SERVICE_NAME: 'bench-on' }],
  ];
  const targets: Target[] = [];
  try {
    for (const [i, [name, env]] of specs.entries())
      targets.push(
        await bench.start(bench.service(name, databases[i].databaseUrl, databases[i].apiKey, env)),
      );
    let seed = 1;
    const onePet = await bench.alternate('GET pet tracing', targets, (target) => {
      const random = mulberry32(seed++);
      return [
        {
          method: 'GET',
          path: `/v1/inventory/${petIds[0]}`,
          headers: target.headers,
          setupRequest: (request) => ({
            ...request,
            path: `/v1/inventory/${petIds[Math.floor(random() * petIds.length)]}`,
          }),
        },
      ];
    });
    const listing = await bench.alternate('GET listing tracing', targets, (target) => [
      { method: 'GET', path: '/v1/inventory', headers: target.headers },
    ]);
    log('  tracing: waiting for the last spans');
    const counts = await settledCounts(receiver);

    const routes: [string, Results][] = [
      ['GET /v1/inventory/{random petId}', onePet],
      [`GET /v1/inventory (${options.items} items)`, listing],
    ];
    const figures: Record<string, unknown> = {};
    for (const [route, results] of routes) {
      bench.throughputTable(
        `${route} without tracing, with it disabled, and exporting to a local OTLP/HTTP receiver (${options.connections} connections)`,
        results,
        UNSET,
      );
      const cpu = (name: string) =>
        bench.ratio(results, name, UNSET, (run) => run.cpuUsPerResponse);
      const rps = (name: string) => bench.ratio(results, name, UNSET, (run) => run.rps);
      bench.check(
        `Tracing: ${route}, server CPU per request, exporting vs unset`,
        fmt.ratio(cpu(ON)),
        `<= ${CPU_BOUND.toFixed(1)}x`,
        cpu(ON) <= CPU_BOUND,
      );
      bench.check(
        `Tracing: ${route}, server CPU per request, OTEL_SDK_DISABLED vs unset`,
        fmt.ratio(cpu(OFF)),
        '(reported; no change beyond noise)',
        true,
      );
      const errors = bench.failures(Object.values(results).flat(), (status) => status === 200);
      bench.check(
        `Tracing: ${route}, non-200 responses and errors`,
        String(errors),
        '0',
        errors === 0,
      );
      figures[route] = {
        cpuOnVsUnset: cpu(ON),
        cpuOffVsUnset: cpu(OFF),
        rpsOnVsUnset: rps(ON),
        rpsOffVsUnset: rps(OFF),
      };
    }

    const none: Counted = { spans: 0, server: 0, scopes: {} };
    const on = counts['bench-on'] ?? none;
    const off = counts['bench-off'] ?? none;
    const perRequest = on.server > 0 ? on.spans / on.server : NaN;
    bench.tables.push(
      'Spans received by the local OTLP/HTTP receiver\n\n' +
        markdownTable(
          ['target', 'spans', 'server spans (requests traced)', 'spans per request'],
          [
            [ON, fmt.rps(on.spans), fmt.rps(on.server), perRequest.toFixed(1)],
            [OFF, fmt.rps(off.spans), fmt.rps(off.server), '–'],
          ],
        ),
      `Spans per traced request, by instrumentation (${ON})\n\n` +
        markdownTable(
          ['instrumentation scope', 'spans per request'],
          Object.entries(on.scopes)
            .sort(([, a], [, b]) => b - a)
            .map(([scope, spans]) => [scope, (spans / on.server).toFixed(2)]),
        ),
    );
    bench.check(
      'Tracing: spans received from the exporting service',
      fmt.rps(on.spans),
      '> 0',
      on.spans > 0,
    );
    bench.check(
      'Tracing: spans received from the service with OTEL_SDK_DISABLED',
      fmt.rps(off.spans),
      '0',
      off.spans === 0,
    );
    bench.report.tracing = {
      ...figures,
      spansReceived: on.spans,
      serverSpansReceived: on.server,
      spansByScope: on.scopes,
      spansFromDisabled: off.spans,
      onePet: bench.summarise(onePet),
      listing: bench.summarise(listing),
    };
  } finally {
    await bench.stop(...targets);
    receiver.close();
  }
}
