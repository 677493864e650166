import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';

const run = promisify(execFile);
const HOST = '127.0.0.1';
/** Redis Cluster's bus port is the node's port + 10000 (`cluster-port` left at 0). */
const CLUSTER_BUS_OFFSET = 10_000;

/** One redis-server process (a data node or a sentinel) on a free local port. */
export interface RedisProcess {
  port: number;
  address: string;
  child: ChildProcess;
  exited: Promise<void>;
}

async function until(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
  gaveUp: () => string | undefined = () => undefined,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const reason = gaveUp();
    if (reason !== undefined) throw new Error(`${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Runs one command on a node with a short-lived connection. */
export async function command(port: number, ...args: (string | number)[]): Promise<unknown> {
  // Bounded: a port another process took accepts the connection and may never answer.
  const redis = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 5_000,
    commandTimeout: 5_000,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await redis.call(String(args[0]), ...args.slice(1).map(String));
  } finally {
    redis.disconnect();
  }
}

/**
 * redis-server processes in a temporary folder of their own, for tests and the bench: a master
 * with a replica and three sentinels, or a six-node Cluster. `stop()` kills every one and removes
 * the folder.
 */
export class RedisServers {
  readonly dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  readonly processes: RedisProcess[] = [];

  /** `pickPort` chooses each process's port; tests give one that hands out a taken port. */
  constructor(private readonly pickPort: (busOffset?: number) => Promise<number> = freePort) {}

  /**
   * Starts `redis-server` with the arguments `argsFor` gives a free port. Another process can take
   * that port between its choice and redis-server's bind (tests run side by side), and redis-server
   * then exits: so a process that exits before it answers is started again on another port.
   */
  private async spawn(
    argsFor: (port: number) => string[],
    busOffset?: number,
    attempts = 5,
  ): Promise<RedisProcess> {
    for (let attempt = 1; ; attempt++) {
      const port = await this.pickPort(busOffset);
      const child = spawn('redis-server', argsFor(port), {
        cwd: this.dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // A bad option is reported on stderr, before the log file is opened.
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const node = { port, address: `${HOST}:${port}`, child, exited };
      try {
        await until(
          // The exit ends a wait on a port another process took, which may never answer.
          () =>
            Promise.race([
              command(port, 'PING').then((reply) => reply === 'PONG'),
              exited.then(() => false),
            ]),
          `redis-server on ${port}`,
          30_000,
          () => (running(child) ? undefined : `exited: ${stderr.trim() || this.logTail(port)}`),
        );
        this.processes.push(node);
        return node;
      } catch (err) {
        const stalled = running(child);
        if (stalled) child.kill('SIGKILL');
        await exited;
        if (stalled || attempt === attempts) throw err;
      }
    }
  }

  /** The last lines redis-server wrote to its log on `port`. */
  private logTail(port: number): string {
    const file = [`redis-${port}.log`, `sentinel-${port}.log`]
      .map((name) => join(this.dir, name))
      .find((path) => existsSync(path));
    return file ? readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'no log';
  }

  /** A data node; `extra` are redis-server options such as `--replicaof`. */
  async server(...extra: string[]): Promise<RedisProcess> {
    const cluster = extra.includes('--cluster-enabled');
    return this.spawn(
      (port) => [
        ...['--port', String(port), '--bind', HOST, '--dir', this.dir],
        ...['--save', '', '--appendonly', 'no', '--dbfilename', `dump-${port}.rdb`],
        ...['--logfile', `redis-${port}.log`],
        ...extra,
      ],
      cluster ? CLUSTER_BUS_OFFSET : undefined,
    );
  }

  /** A sentinel watching `master` as `name`, noticing its death after 1 s. */
  async sentinel(name: string, master: RedisProcess): Promise<RedisProcess> {
    return this.spawn((port) => {
      const file = join(this.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          `bind ${HOST}`,
          `dir ${this.dir}`,
          `logfile sentinel-${port}.log`,
          `sentinel monitor ${name} ${HOST} ${master.port} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      return [file, '--sentinel'];
    });
  }

  kill(node: RedisProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    node.child.kill(signal);
    return node.exited;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map((node) => (running(node.child) ? this.kill(node) : undefined)),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface SentinelGroup {
  servers: RedisServers;
  name: string;
  master: RedisProcess;
  replica: RedisProcess;
  sentinels: RedisProcess[];
}

/** A master, its replica in sync, and three sentinels that know both and one another. */
export async function startSentinelGroup(name = 'petstore'): Promise<SentinelGroup> {
  const servers = new RedisServers();
  try {
    const master = await servers.server();
    const replica = await servers.server('--replicaof', HOST, String(master.port));
    await until(
      async () =>
        /master_link_status:up/.test(String(await command(replica.port, 'INFO', 'replication'))),
      'replica in sync',
    );
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i++) sentinels.push(await servers.sentinel(name, master));
    await until(async () => {
      for (const sentinel of sentinels) {
        const replicas = (await command(sentinel.port, 'SENTINEL', 'REPLICAS', name)) as unknown[];
        const peers = (await command(sentinel.port, 'SENTINEL', 'SENTINELS', name)) as unknown[];
        if (replicas.length < 1 || peers.length < 2) return false;
      }
      return true;
    }, 'sentinels knowing the replica and one another');
    return { servers, name, master, replica, sentinels };
  } catch (err) {
    await servers.stop();
    throw err;
  }
}

export interface RedisCluster {
  servers: RedisServers;
  nodes: RedisProcess[];
}

/** Six nodes made a Cluster by `redis-cli --cluster create`: three masters, one replica each. */
export async function startCluster(): Promise<RedisCluster> {
  const servers = new RedisServers();
  try {
    const nodes: RedisProcess[] = [];
    for (let i = 0; i < 6; i++)
      nodes.push(
        await servers.server(
          ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${i}.conf`],
          ...['--cluster-node-timeout', '1000'],
        ),
      );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => node.address),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await until(async () => {
      for (const node of nodes) {
        const info = String(await command(node.port, 'CLUSTER', 'INFO'));
        if (!/cluster_state:ok/.test(info) || !/cluster_known_nodes:6\b/.test(info)) return false;
        const replication = String(await command(node.port, 'INFO', 'replication'));
        if (/role:slave/.test(replication) && !/master_link_status:up/.test(replication))
          return false;
        const ranges = (await command(node.port, 'CLUSTER', 'SLOTS')) as unknown[][];
        if (ranges.length !== 3 || ranges.some((range) => range.length < 4)) return false;
      }
      return true;
    }, 'a Cluster of six nodes, every slot served and every replica in sync');
    return { servers, nodes };
  } catch (err) {
    await servers.stop();
    throw err;
  }
}

/** The master serving `hashTag`'s slot and its replica. */
export async function shardOf(
  cluster: RedisCluster,
  hashTag: string,
): Promise<{ master: RedisProcess; replica: RedisProcess }> {
  const any = cluster.nodes[0].port;
  const slot = Number(await command(any, 'CLUSTER', 'KEYSLOT', `{${hashTag}}`));
  const ranges = (await command(any, 'CLUSTER', 'SLOTS')) as [
    number,
    number,
    ...[string, number][],
  ][];
  const range = ranges.find(([from, to]) => slot >= from && slot <= to)!;
  const byPort = (port: number) => cluster.nodes.find((node) => node.port === Number(port))!;
  return { master: byPort(range[2][1]), replica: byPort(range[3][1]) };
}
