import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { request } from 'node:http';
import autocannon from 'autocannon';
import { percentile } from './stats.js';

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  requests: autocannon.Request[];
}

export interface LoadResult {
  /** Responses per second, every status counted. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  /** Connection errors and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  bytes: number;
  /** Server CPU time per response, in microseconds: steadier than req/s on a busy machine. */
  cpuUsPerResponse: number;
}

/**
 * One autocannon run. Latencies are collected from its response events at hrtime precision
 * (its own histogram keeps whole milliseconds, too coarse for a p99 of a few ms).
 */
export async function runLoad(spec: LoadSpec, serverCpuMicros?: () => number): Promise<LoadResult> {
  const latencies: number[] = [];
  // Without a callback, autocannon returns an event emitter that is also a promise of the result.
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    requests: spec.requests,
    timeout: 30,
  }) as unknown as EventEmitter & Promise<autocannon.Result>;
  instance.on(
    'response',
    (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
    },
  );
  const cpuBefore = serverCpuMicros?.() ?? NaN;
  const result = await instance;
  const cpu = (serverCpuMicros?.() ?? NaN) - cpuBefore;
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = count ?? 0;
  const responses = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  return {
    rps: responses / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    responses,
    errors: result.errors + result.timeouts,
    statuses,
    bytes: result.throughput.total,
    cpuUsPerResponse: cpu / responses,
  };
}

export interface TimedResponse {
  status: number;
  /** From writing the request to the last byte of the body. */
  ms: number;
  bytes: number;
  sha256: string;
  headers: Record<string, string | string[] | undefined>;
}

export function timedRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    hash?: boolean;
  } = {},
): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    const started = process.hrtime.bigint();
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (options.hash) hash.update(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            bytes,
            sha256: options.hash ? hash.digest('hex') : '',
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.end(options.body);
  });
}
