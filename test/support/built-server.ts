import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../bench/lib/ports.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const MAIN = join(ROOT, 'dist', 'main.js');
export const CLI = join(ROOT, 'dist', 'cli', 'cli.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds dist/ when it is missing or older than src/ (`npm test` has built it already). Test
 * files run in parallel, so one build at a time, under a lock directory; tsc still emits when
 * another part of the tree has a type error, so only a missing output fails.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(
    tmpdir(),
    `petstore-build-${Buffer.from(ROOT).toString('base64url').slice(-40)}.lock`,
  );
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000) throw new Error(`build lock ${lock} held for over 2 minutes`);
      // A lock left by a killed run is stale after a minute. Its holder may remove it between
      // the mkdir and this look at it.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 60_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(100);
    }
  }
  try {
    if (
      existsSync(MAIN) &&
      existsSync(CLI) &&
      statSync(MAIN).mtimeMs >= newestMtime(join(ROOT, 'src'))
    )
      return;
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'pipe',
        },
      );
    } catch (err) {
      if (!existsSync(MAIN) || !existsSync(CLI)) throw err;
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Where tests start servers of their own; see bench/lib/ports.ts. */
export { freePort };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI started in `cwd`, with `env` over this process's environment. */
export function startCli(
  env: Record<string, string>,
  args: string[],
  cwd = ROOT,
): { pid: number; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { pid: child.pid!, result };
}

/** Runs the built CLI to completion, in `cwd`, with `env` over this process's environment. */
export function spawnCli(
  env: Record<string, string>,
  args: string[],
  cwd = ROOT,
): Promise<CliResult> {
  return startCli(env, args, cwd).result;
}

/**
 * Resolves once the process's main thread sleeps in a (clock_)nanosleep system call (Linux
 * /proc/<pid>/syscall): a Node process's main thread does so only inside SQLite's busy handler,
 * waiting for a lock that another connection holds. Rejects if `exited` settles first.
 */
export async function sleepingOnLock(pid: number, exited: Promise<unknown>): Promise<void> {
  let done = false;
  void exited.finally(() => (done = true));
  // x86-64 nanosleep and clock_nanosleep, arm64 nanosleep and clock_nanosleep.
  const sleeping = process.arch === 'arm64' ? ['101', '115'] : ['35', '230'];
  for (;;) {
    if (done) throw new Error(`process ${pid} exited before it waited on a lock`);
    let call = '';
    try {
      call = readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0];
    } catch {
      // gone between the check and the read: reported on the next turn
    }
    if (sleeping.includes(call.trim())) return;
    await sleep(10);
  }
}

/** Runs the built CLI to completion; rejects on a non-zero exit. */
export async function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await spawnCli(env, args);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`);
  return { stdout, stderr };
}

/** The raw key that `keys create` prints as its last line. */
export async function createKeyWithCli(
  env: Record<string, string>,
  args: string[],
): Promise<string> {
  const { stdout } = await runCli(env, ['keys', 'create', ...args]);
  return stdout.trim().split('\n').at(-1)!.trim();
}

export interface RunningServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /**
   * The first match of `pattern` in the output, once the process has written it: a server is
   * ready before its pipes have delivered every line it wrote.
   */
  waitForOutput(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node dist/main.js` (of the project at `root`) on a free port and resolves once GET
 * /health answers 200.
 */
export async function startServer(
  env: Record<string, string>,
  root = ROOT,
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port) },
  });
  let output = '';
  const written = new EventEmitter();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    written.emit('data');
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => ((running = false), resolve())),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    child,
    url,
    output: () => output,
    waitForOutput: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(output);
          if (match) {
            written.off('data', look);
            resolve(match);
          } else if (!running) {
            written.off('data', look);
            reject(new Error(`the server exited without writing ${pattern}:\n${output}`));
          }
        };
        written.on('data', look);
        void exited.then(look);
        look();
      }),
    exited,
    async stop(signal = 'SIGTERM') {
      if (running) child.kill(signal);
      await exited;
    },
  };
  for (const deadline = Date.now() + 20_000; ;) {
    if (!running) throw new Error(`server exited before it was ready:\n${output}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop('SIGKILL');
      throw new Error(`server not ready within 20 s:\n${output}`);
    }
    await sleep(50);
  }
}
