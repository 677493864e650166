import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig, RedisNode } from '../../config/app-config.js';

export type RedisClient = Redis | Cluster;

const SWITCH_MASTER = '+switch-master';
const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

const addressOf = (node: Redis) => `${node.options.host}:${node.options.port}`;

// A dead or slow Redis fails fast on all three topologies: no offline queue, no retried command.
export class RedisConnection {
  readonly client: RedisClient;
  readonly connectTimeoutMs: number;
  readonly cluster: boolean;
  private readonly failoverListeners: (() => void)[] = [];
  private readonly watchers: Redis[] = [];
  private lastSwitch = '';
  private replicas = new Set<string>();

  constructor(config: RedisConfig) {
    this.connectTimeoutMs = Math.max(1000, config.commandTimeoutMs);
    const options: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config.commandTimeoutMs,
      connectTimeout: this.connectTimeoutMs,
      retryStrategy: reconnectDelay,
    };
    this.cluster = 'clusterNodes' in config;
    if ('url' in config) {
      this.client = new Redis(config.url, { ...options, lazyConnect: true });
    } else if ('sentinel' in config) {
      const { nodes, name, password } = config.sentinel;
      this.client = new Redis({
        ...options,
        lazyConnect: true,
        sentinels: nodes,
        name,
        sentinelPassword: password,
        password: config.password,
        // No failoverDetector: its announcement can end a reconnection under way for good.
        sentinelRetryStrategy: reconnectDelay,
      });
      this.watchSentinels(nodes, name, password);
    } else {
      this.client = new Cluster(config.clusterNodes, {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: reconnectDelay,
        // A promotion shows within a second even with no command redirected meanwhile.
        slotsRefreshInterval: 1000,
        slotsRefreshTimeout: this.connectTimeoutMs,
        redisOptions: {
          password: config.password,
          commandTimeout: config.commandTimeoutMs,
          connectTimeout: this.connectTimeoutMs,
          maxRetriesPerRequest: 0,
        },
      });
      this.client.on('+node', () => this.noteMasters());
      this.client.on('-node', () => this.noteMasters());
    }
  }

  onFailover(listener: () => void): void {
    this.failoverListeners.push(listener);
  }

  private watchSentinels(nodes: RedisNode[], name: string, password: string | undefined): void {
    for (const node of nodes) {
      const watcher = new Redis({
        ...node,
        password,
        lazyConnect: true,
        connectTimeout: this.connectTimeoutMs,
        retryStrategy: reconnectDelay,
        maxRetriesPerRequest: null,
      });
      watcher.on('error', () => {});
      watcher.on('message', (channel: string, message: string) => {
        if (channel !== SWITCH_MASTER || message.split(' ')[0] !== name) return;
        if (message === this.lastSwitch) return;
        this.lastSwitch = message;
        this.failedOver();
      });
      this.watchers.push(watcher);
    }
  }

  noteMasters(): void {
    if (!(this.client instanceof Cluster)) return;
    const promoted = this.client.nodes('master').some((node) => this.replicas.has(addressOf(node)));
    this.replicas = new Set(this.client.nodes('slave').map(addressOf));
    if (promoted) this.failedOver();
  }

  private failedOver(): void {
    for (const listener of this.failoverListeners) listener();
  }

  async connect(): Promise<void> {
    for (const watcher of this.watchers) watcher.subscribe(SWITCH_MASTER).catch(() => {});
    await this.client.connect();
    this.noteMasters();
  }

  /** On a Cluster, one dead master leaves its slots unserved. */
  async ping(): Promise<void> {
    const client = this.client;
    if (!(client instanceof Cluster)) {
      await client.ping();
      return;
    }
    const ranges = await client.cluster('SLOTS');
    const masters = new Map(client.nodes('master').map((node) => [addressOf(node), node]));
    const serving = new Set<Redis>();
    for (const [from, to, owner] of ranges) {
      const master = owner && masters.get(`${owner[0]}:${owner[1]}`);
      if (!master) throw new Error(`no Redis Cluster master serves slots ${from}-${to}`);
      serving.add(master);
    }
    if (serving.size === 0) throw new Error('the Redis Cluster serves no slot');
    await Promise.all([...serving].map((master) => master.ping()));
    this.noteMasters();
  }

  async close(): Promise<void> {
    for (const watcher of this.watchers) watcher.disconnect();
    const client = this.client;
    if (client.status === 'end') return;
    if (client.status !== 'ready') {
      client.disconnect();
      return;
    }
    await client.quit().catch(() => client.disconnect());
  }
}
