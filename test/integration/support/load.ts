import { type Instance, type Reply, send, waitFor } from './cluster.js';

/** One request of a load, as the client saw it. */
export interface Sample {
  instance: string;
  method: string;
  path: string;
  /** Milliseconds since the load began. */
  start: number;
  end: number;
  /** 0 when no answer came (socket error or client timeout); `error` then says which. */
  status: number;
  reply?: Reply;
  error?: string;
}

/** Request loops that run until stopped, recording every request against one clock. */
export class Load {
  readonly samples: Sample[] = [];
  private readonly began = Date.now();
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  /** Milliseconds since the load began, on the clock of the samples. */
  now(): number {
    return Date.now() - this.began;
  }

  /**
   * Starts a loop that sends one request at a time: `next(i)` gives the i-th request. `onReply`
   * sees each answer before the next request is sent (a writer tracks what was acknowledged).
   */
  loop(
    instance: Instance,
    next: (i: number) => {
      method: string;
      path: string;
      key: string;
      body?: unknown;
      onReply?: (sample: Sample) => void;
    },
    options: { timeoutMs: number },
  ): void {
    this.loops.push(
      (async () => {
        for (let i = 0; !this.stopped; i++) {
          const request = next(i);
          const start = this.now();
          const sample: Sample = {
            instance: instance.name,
            method: request.method,
            path: request.path,
            start,
            end: start,
            status: 0,
          };
          try {
            sample.reply = await send(instance, request.method, request.path, {
              key: request.key,
              body: request.body,
              timeoutMs: options.timeoutMs,
            });
            sample.status = sample.reply.status;
          } catch (err) {
            const { code, message } = err as { code?: string; message?: string };
            sample.error = `${code ?? 'error'}: ${message ?? String(err)}`;
          }
          sample.end = this.now();
          this.samples.push(sample);
          request.onReply?.(sample);
        }
      })(),
    );
  }

  /**
   * Waits until every instance named has answered 200 to a request begun at or after `from`.
   * `afterMs`: from `from` to the latest of those first 200s being sent. `steadyFrom`: when
   * the last of them was answered; requests begun later meet a recovered service.
   */
  async recovery(
    instances: readonly string[],
    from: number,
    timeoutMs: number,
  ): Promise<{ afterMs: number; steadyFrom: number }> {
    const firstOk = (instance: string) =>
      this.samples.find((s) => s.instance === instance && s.start >= from && s.status === 200);
    await waitFor(async () => instances.every((instance) => firstOk(instance)), timeoutMs);
    const first = instances.map((instance) => firstOk(instance)!);
    return {
      afterMs: Math.max(...first.map((s) => s.start - from)),
      steadyFrom: Math.max(...first.map((s) => s.end)),
    };
  }

  /** Lets each loop finish the request it is on, then resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }
}

/** A request's outcome in a word: its status and Error code, or the socket error. */
export function outcome(sample: Sample): string {
  if (sample.status === 0) return `no answer (${sample.error})`;
  const code = (sample.reply?.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${sample.status} ${code}` : String(sample.status);
}

/** Counts of each outcome, for messages and the report. */
export function tally(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of samples) counts[outcome(sample)] = (counts[outcome(sample)] ?? 0) + 1;
  return counts;
}

/** Problems with a 503: the contract wants the Error body and a Retry-After of whole seconds >= 1. */
export function unavailableProblems(sample: Sample): string[] {
  const problems: string[] = [];
  const body = sample.reply?.body as Record<string, unknown> | undefined;
  if (
    !body ||
    body.code !== 'service_unavailable' ||
    body.status !== 503 ||
    typeof body.message !== 'string' ||
    Object.keys(body).sort().join() !== 'code,message,status'
  )
    problems.push(`body ${sample.reply?.text}`);
  const retryAfter = sample.reply?.headers['retry-after'];
  if (typeof retryAfter !== 'string' || !/^[1-9]\d*$/.test(retryAfter))
    problems.push(`Retry-After ${String(retryAfter)}`);
  return problems;
}

/** One scenario's figures, printed by the test and quoted in docs/operations-failures.md. */
export function printReport(
  scenario: string,
  figures: Record<string, number | string | Record<string, number>>,
): void {
  const lines = Object.entries(figures).map(
    ([name, value]) =>
      `  ${name}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
  );
  console.log(`[fault report] ${scenario}\n${lines.join('\n')}`);
}

/** The value of one series on an instance's metrics port (`METRICS_PORT`), 0 when absent. */
export async function metric(metricsPort: number, series: string): Promise<number> {
  const reply = await send({ port: metricsPort }, 'GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics answered ${reply.status}`);
  const line = reply.text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * What an instance logged at warning level or above, each kind of line (its message up to the
 * first colon, numbers elided) with how often it appeared.
 */
export function loggedProblems(log: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of log.split('\n')) {
    let entry: { level?: number; msg?: string };
    try {
      entry = JSON.parse(line) as { level?: number; msg?: string };
    } catch {
      continue;
    }
    if (typeof entry.level !== 'number' || entry.level < 40) continue;
    // The start-up hint on a database without keys yet is advice, not a problem.
    if (String(entry.msg).startsWith('No API key can call this server yet')) continue;
    const kind = `${entry.level >= 50 ? 'ERROR' : 'WARN'} ${String(entry.msg)
      .split(':')[0]
      .replace(/\d+/g, 'N')}`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
