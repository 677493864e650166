import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { LoadResult } from './load.js';
import { percentile } from './stats.js';

/** A database of the bench's own on the PostgreSQL server at `serverUrl`; the caller drops it. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unusual database name: ${name}`);
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function postgresReachable(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  return client.connect().then(
    () => client.end().then(() => true),
    () => false,
  );
}

/** Deletes every Redis key under `prefix` (what the bench's services wrote). */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

interface FloorResult {
  responses: number;
  elapsed: number;
  errors: number;
  latencies: number[];
  cpuMicros: number;
}

/**
 * The node-postgres floor (bench/baselines/pg-floor.ts) in a process of its own, pinned like the
 * servers, driven over IPC.
 */
export class PostgresFloor {
  private pending: ((result: FloorResult) => void) | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (message: { result?: FloorResult }) => {
      if (message.result) this.pending?.(message.result);
    });
  }

  static async start(
    name: string,
    script: string,
    prefix: string[],
    env: Record<string, string>,
  ): Promise<PostgresFloor> {
    const [command, ...args] = [...prefix, process.execPath, script];
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    });
    return new PostgresFloor(name, child);
  }

  async run(seconds: number, connections: number, petIds: number[], seed: number) {
    const result = await new Promise<FloorResult>((resolve) => {
      this.pending = resolve;
      this.child.send({ run: { seconds, connections, petIds, seed } });
    });
    this.pending = undefined;
    return {
      rps: result.responses / result.elapsed,
      p50Ms: percentile(result.latencies, 50),
      p99Ms: percentile(result.latencies, 99),
      responses: result.responses,
      errors: result.errors,
      statuses: { '200': result.responses },
      bytes: 0,
      cpuUsPerResponse: result.cpuMicros / result.responses,
    } satisfies LoadResult;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ stop: true });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
