import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort } from '../../support/built-server.js';
import type { IntegrationContext, TestDatabase } from './context.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const CLI = join(ROOT, 'dist', 'cli', 'cli.js');
const MAX_LOG_CHARS = 200_000;

export interface Instance {
  name: string;
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** What the process wrote to stdout and stderr so far. */
  log(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Set once it answered ready: from then on, an exit no test asked for prints its log. */
  ready: boolean;
}

/** Spawns `node dist/main.js` with `env` on a free port; see `waitReady`. */
export async function spawnInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PGAPPNAME: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_LOG_CHARS);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const instance: Instance = {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    log: () => output,
    exited,
    ready: false,
  };
  // A server that dies under a test otherwise shows only as refused connections.
  void exited.then(({ code, signal }) => {
    if (instance.ready && !child.killed)
      process.stderr.write(
        `[instance exited] ${name} (code ${code}, signal ${signal}); its last output:\n${output.slice(-8000)}\n`,
      );
  });
  return instance;
}

/**
 * The settings of production instances on `database` sharing the run's Redis, under a key prefix
 * of their own.
 */
export function sharedRedisEnv(
  context: IntegrationContext,
  database: TestDatabase,
  label: string,
): Record<string, string> {
  return {
    APP_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: context.redisUrl,
    REDIS_KEY_PREFIX: `${context.redisKeyPrefix}${label}_${uniqueSuffix()}:`,
    // Several servers, PostgreSQL and the load share two cores in CI: a saturated event loop can
    // hold a Redis reply past the 500 ms default, and the limiter then fails closed (503).
    // These tests are about agreement between instances, not about Redis latency.
    REDIS_COMMAND_TIMEOUT_MS: '5000',
  };
}

/**
 * Spawns `${prefix}_${name}` for each name, all at once, and resolves once every one is ready;
 * stops them all if one is not.
 */
export async function spawnReady(
  prefix: string,
  names: string[],
  env: Record<string, string> | ((index: number) => Record<string, string>),
): Promise<Instance[]> {
  const instances = await Promise.all(
    names.map((name, i) =>
      spawnInstance(`${prefix}_${name}`, typeof env === 'function' ? env(i) : env),
    ),
  );
  try {
    await Promise.all(instances.map((instance) => waitReady(instance)));
  } catch (err) {
    await stopAll(instances);
    throw err;
  }
  return instances;
}

export async function stopAll(
  instances: readonly Instance[] | undefined,
  signal?: NodeJS.Signals,
): Promise<void> {
  await Promise.all((instances ?? []).map((instance) => stopInstance(instance, signal)));
}

/** Resolves once GET /health/ready answers 200; rejects with the log if the process dies or stalls. */
export async function waitReady(instance: Instance, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void instance.exited.then((result) => (exit = result));
  while (Date.now() < deadline) {
    if (exit)
      throw new Error(
        `${instance.name} exited (${JSON.stringify(exit)}) before it was ready:\n${instance.log()}`,
      );
    try {
      if ((await send(instance, 'GET', '/health/ready')).status === 200) {
        instance.ready = true;
        return;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${instance.name} was not ready within ${timeoutMs} ms:\n${instance.log()}`);
}

/** Sends a signal and waits for the exit; SIGKILL after `timeoutMs` so a test never leaves a process. */
export async function stopInstance(
  instance: Instance,
  signal: NodeJS.Signals = 'SIGTERM',
  timeoutMs = 20_000,
) {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null)
    return instance.exited;
  instance.child.kill(signal);
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), timeoutMs);
  try {
    return await instance.exited;
  } finally {
    clearTimeout(timer);
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli/cli.js …` with the instances' environment. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Creates a key with the CLI; returns the raw key (the last line of stdout) and its id. */
export async function createKeyWithCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ key: string; id: number }> {
  const result = await runCli(['keys', 'create', ...args], env);
  if (result.code !== 0) throw new Error(`keys create failed (${result.code}):\n${result.stderr}`);
  const key = result.stdout.trimEnd().split('\n').at(-1)!;
  const id = Number(/Created API key (\d+)/.exec(result.stdout)?.[1]);
  if (!/^pk_(live|test)_[0-9A-Za-z]{32,}$/.test(key) || !Number.isInteger(id)) {
    throw new Error(`unexpected keys create output:\n${result.stdout}`);
  }
  return { key, id };
}

/** A key of the enterprise plan that no load here runs out of. */
export function unlimitedKey(env: Record<string, string>): Promise<{ key: string; id: number }> {
  return createKeyWithCli(env, [
    '--plan',
    'enterprise',
    '--per-minute',
    '1000000',
    '--per-day',
    '10000000',
  ]);
}

/** Imports `json`, the text of an inventory file, with the CLI. */
export async function importInventory(env: Record<string, string>, json: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-import-'));
  try {
    const file = join(dir, 'pets.json');
    writeFileSync(file, json);
    const imported = await runCli(['inventory', 'import', file], env);
    expect(imported.code, imported.stderr).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
}

/** One HTTP request; rejects with the socket error (its `code`: ECONNREFUSED, ECONNRESET …). */
export function send(
  instance: Pick<Instance, 'port'>,
  method: string,
  path: string,
  options: {
    key?: string;
    body?: unknown;
    agent?: http.Agent;
    timeoutMs?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const req = http.request({
      host: '127.0.0.1',
      port: instance.port,
      method,
      path,
      headers,
      agent: options.agent ?? false,
    });
    req.setTimeout(options.timeoutMs ?? 20_000, () =>
      req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })),
    );
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.end(payload);
  });
}

/** Polls `check` every 50 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function uniqueSuffix(): string {
  return randomBytes(3).toString('hex');
}
