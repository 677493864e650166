import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { cpuMicros, type Memory, readMemory, resetPeak, sleep } from './system.js';

export interface ProbeReport {
  maxMs: number;
  p99Ms: number;
  rss: number;
  heapUsed: number;
}

export interface TargetSpec {
  name: string;
  /** The script node runs (a production build file). */
  script: string;
  env: Record<string, string>;
  /** A path answering 200 once the server is ready. */
  readyPath: string;
  /** Headers every request to this target carries (the API key). */
  headers: Record<string, string>;
}

/** One benchmarked server process, with its event-loop probe on the IPC channel. */
export class Target {
  private pending: ((report: ProbeReport) => void) | undefined;

  private constructor(
    readonly spec: TargetSpec,
    readonly url: string,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    child.on('message', (message: { probe?: string } & ProbeReport) => {
      if (message?.probe === 'report') this.pending?.(message);
    });
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get headers(): Record<string, string> {
    return this.spec.headers;
  }

  static async start(
    spec: TargetSpec,
    options: {
      prefix: string[];
      probe: string;
      logDir: string;
      nodeArgs?: string[];
      readyWithinMs?: number;
    },
  ): Promise<Target> {
    const port = await freePort();
    const logFile = join(options.logDir, `${spec.name}.log`);
    const log = openSync(logFile, 'a');
    const node = [
      process.execPath,
      ...(options.nodeArgs ?? []),
      '--import',
      options.probe,
      spec.script,
    ];
    const [command, ...args] = [...options.prefix, ...node];
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? '', ...spec.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', log, log, 'ipc'],
    });
    closeSync(log);
    const target = new Target(spec, `http://127.0.0.1:${port}`, child, logFile);
    const readyWithinMs = options.readyWithinMs ?? 60_000;
    const deadline = Date.now() + readyWithinMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`${spec.name} exited with ${child.exitCode}; see ${logFile}`);
      const status = await target.status(spec.readyPath).catch(() => 0);
      if (status === 200) return target;
      await sleep(100);
    }
    await target.stop();
    throw new Error(
      `${spec.name} did not become ready within ${readyWithinMs / 1000} s; see ${logFile}`,
    );
  }

  memory(): Memory {
    return readMemory(this.pid);
  }

  cpuMicros(): number {
    return cpuMicros(this.pid);
  }

  resetPeak(): boolean {
    return resetPeak(this.pid);
  }

  /** The probe's event-loop figures since the last reset; resets them when asked. */
  async probe(reset = false, gc = false): Promise<ProbeReport> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no probe report`)), 5000);
      this.pending = (report) => {
        clearTimeout(timer);
        this.pending = undefined;
        resolve(report);
      };
      this.child.send({ probe: 'read', reset, gc });
    });
  }

  /**
   * Memory retained, once it has settled: after a full collection V8 and the C allocator hand
   * freed pages back over the next second or two. At 15k requests/s, RSS read right after a
   * collection swung between 160 and 250 MiB from one 10 s stretch of a soak to the next, with
   * the live heap flat; read once a second after the load stops until two readings agree within
   * 2%, it stayed within 1%.
   */
  async settledMemory(): Promise<ProbeReport> {
    let last = await this.probe(false, true);
    for (let i = 0; i < 10; i++) {
      await sleep(1000);
      const next = await this.probe(false, true);
      const settled = Math.abs(next.rss / last.rss - 1) <= 0.02;
      last = next;
      if (settled) break;
    }
    return last;
  }

  status(path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(`${this.url}${path}`, { headers: this.headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.setTimeout(2000, () => req.destroy(new Error('timeout')));
      req.end();
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** A script run in a child process of its own that answers by IPC messages keyed by name. */
export interface ScriptChild {
  /** The next message's value under `key`. */
  next<T>(key: string): Promise<T>;
  send(message: string): void;
  close(): void;
}

export function spawnScript(source: string): ScriptChild {
  const child = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    next: <T>(key: string) =>
      new Promise<T>((resolve) => {
        const on = (message: Record<string, T>) => {
          if (!(key in message)) return;
          child.off('message', on);
          resolve(message[key]);
        };
        child.on('message', on);
      }),
    send: (message) => child.send(message),
    close: () => child.kill(),
  };
}
