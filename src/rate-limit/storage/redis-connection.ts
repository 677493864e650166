import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig, RedisNode } from '../../config/app-config.js';

export type RedisClient = Redis | Cluster;

const SWITCH_MASTER = '+switch-master';
/** Between reconnection attempts: soon after a failover, never hammering a Redis that is away. */
const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

const nodeKey = (node: RedisNode) => `${node.host}:${node.port}`;
const addressOf = (node: Redis) => `${node.options.host}:${node.options.port}`;

/**
 * The one Redis connection of the service, for whichever topology the configuration names. A
 * dead or slow Redis fails fast on all three: no offline queue, no retried command, a command
 * timeout, and one connection attempt at a time in the background.
 */
export class RedisConnection {
  readonly client: RedisClient;
  readonly connectTimeoutMs: number;
  /** On a Cluster the keys of one script call must share a hash slot. */
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
        // No failoverDetector: its announcement can end a reconnection under way for good. A
        // demoted master needs none, as Sentinel disconnects its clients (CLIENT KILL).
        sentinelRetryStrategy: reconnectDelay,
      });
      this.watchSentinels(nodes, name, password);
    } else {
      this.client = new Cluster(config.clusterNodes, {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: reconnectDelay,
        // A replica's promotion shows in the slot map within a second even with no command
        // redirected meanwhile.
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

  /** A promotion seen: announced by a sentinel, or a Cluster replica now serving as master. */
  onFailover(listener: () => void): void {
    this.failoverListeners.push(listener);
  }

  // Sentinels announce a promotion on +switch-master, each once; one announcement is one failover.
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
      watcher.on('error', () => {
        // The sentinel's own outage: the data connection reports what matters to requests.
      });
      watcher.on('message', (channel: string, message: string) => {
        if (channel !== SWITCH_MASTER || message.split(' ')[0] !== name) return;
        if (message === this.lastSwitch) return;
        this.lastSwitch = message;
        this.failedOver();
      });
      this.watchers.push(watcher);
    }
  }

  /** Called whenever the Cluster's view may have changed; counts replicas that became masters. */
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
    for (const watcher of this.watchers)
      watcher.subscribe(SWITCH_MASTER).catch(() => {
        // Subscribed again on its reconnection.
      });
    await this.client.connect();
    this.noteMasters();
  }

  /** Rejects unless every master answers: on a Cluster, one dead master leaves its slots unserved. */
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

  /** Configured nodes, for messages: never a password. */
  static describe(config: RedisConfig): string {
    if ('url' in config) return 'one Redis';
    if ('sentinel' in config)
      return `Sentinel master ${config.sentinel.name} via ${config.sentinel.nodes.map(nodeKey).join(',')}`;
    return `Redis Cluster via ${config.clusterNodes.map(nodeKey).join(',')}`;
  }
}
