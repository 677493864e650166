import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

/*
 * Instructions a server executes per request, counted by valgrind's callgrind. A count hardly
 * depends on what else the machine runs (runs of one build agree within about 1.5%), so a
 * difference of a few percent between two builds shows up, where req/s on a shared machine
 * swings by a third. It is not time: a cache miss or
 * a system call counts as nothing, so it complements the load scenarios rather than replacing them.
 */

/** vgdb, behind callgrind_control, finds a process by a file named after USER and HOST: both sides get these. */
export const COUNTING_ENV = { USER: 'bench', HOST: '127.0.0.1' };

export function valgrindVersion(): string | undefined {
  try {
    return execFileSync('valgrind', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * What a counted server runs under. V8 rewrites its own machine code, hence the self-modifying
 * code check. V8 then compiles and collects garbage on the main thread only: with background
 * threads, when optimised code arrives moved a count by up to 7% between two runs of one build.
 */
export function countingCommand(dir: string): { prefix: string[]; nodeArgs: string[] } {
  return {
    prefix: [
      'valgrind',
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--cache-sim=no',
      '--branch-sim=no',
      `--callgrind-out-file=${join(dir, 'callgrind.%p')}`,
    ],
    nodeArgs: ['--single-threaded'],
  };
}

export interface CountedRequest {
  method: 'GET' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** `count` requests, `connections` at a time on keep-alive connections, each answered `expect`. */
async function drive(
  url: string,
  next: () => CountedRequest,
  count: number,
  connections: number,
  expect: number,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const { method, path, headers, body } = next();
      const req = request(
        `${url}${path}`,
        {
          method,
          agent,
          headers:
            body === undefined
              ? headers
              : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === expect
              ? resolve()
              : reject(new Error(`${method} ${path} answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
}

function dumpParts(dir: string, pid: number): number[] {
  const pattern = new RegExp(`^callgrind\\.${pid}\\.(\\d+)$`);
  return readdirSync(dir).flatMap((name) => {
    const match = pattern.exec(name);
    return match ? [Number(match[1])] : [];
  });
}

/** The first dump of `pid` numbered above `after`, once complete (its totals line comes last). */
async function dumpAfter(dir: string, pid: number, after: number): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const part = Math.max(0, ...dumpParts(dir, pid));
    if (part > after) {
      const file = join(dir, `callgrind.${pid}.${after + 1}`);
      if (/^totals: /m.test(readFileSync(file, 'utf8'))) return file;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no complete callgrind dump of process ${pid} in ${dir}`);
}

/**
 * Instructions per request for `count` requests, counted after `warmup` requests (JIT, caches):
 * the counters are zeroed, the requests sent, and the counts dumped and read.
 */
export async function instructionsPerRequest(
  target: { url: string; pid: number },
  dir: string,
  next: () => CountedRequest,
  options: { warmup: number; count: number; connections: number; expect?: number },
): Promise<number> {
  const control = (command: '-z' | '-d') =>
    execFileSync('callgrind_control', [command, String(target.pid)], {
      env: { ...process.env, ...COUNTING_ENV },
      stdio: 'ignore',
    });
  const expect = options.expect ?? 200;
  await drive(target.url, next, options.warmup, options.connections, expect);
  control('-z');
  await drive(target.url, next, options.count, options.connections, expect);
  const before = Math.max(0, ...dumpParts(dir, target.pid));
  control('-d');
  const total = /^summary: (\d+)/m.exec(
    readFileSync(await dumpAfter(dir, target.pid, before), 'utf8'),
  );
  if (!total) throw new Error(`no instruction total in the dump of process ${target.pid}`);
  return Number(total[1]) / options.count;
}
