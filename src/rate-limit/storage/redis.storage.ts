import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Cluster } from 'ioredis';
import type { RedisConfig } from '../../config/app-config.js';
import { Clock, SystemClock } from '../clock.js';
import {
  ONE_REQUEST,
  counterOf,
  type BanPolicy,
  type Charge,
  type RateLimitOutcome,
  type RateLimitStatus,
  type WindowSpec,
  windowEnd,
  windowIndex,
  windowUsage,
} from '../rate-limit.policy.js';
import { peekOutcome } from '../rate-limit.peek.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './rate-limit.storage.js';
import { type RedisClient, RedisConnection } from './redis-connection.js';

/** Keys outlive their window a little, so an instance whose clock lags still finds the count. */
const KEY_GRACE_MS = 5_000;

// Atomic, so instances sharing Redis accept exactly the limit. ARGV: now, threshold, ban ms, grace,
// then per request: peek, cost, bans, n, n x (limit, end); KEYS: ban, n hashes {n, r}.
export const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local banMs = tonumber(ARGV[3])
local grace = tonumber(ARGV[4])
local out = {}

local function apply(k, a)
  local peek = ARGV[a] == '1'
  local cost = tonumber(ARGV[a + 1])
  local bans = ARGV[a + 2] == '1'
  local n = tonumber(ARGV[a + 3])
  local ban = KEYS[k]
  local keys, limits, ends, used = {}, {}, {}, {}
  for i = 1, n do
    keys[i] = KEYS[k + i]
    limits[i] = tonumber(ARGV[a + 2 + 2 * i])
    ends[i] = tonumber(ARGV[a + 3 + 2 * i])
    used[i] = tonumber(redis.call('HGET', keys[i], 'n') or '0')
  end
  local function reply(status, retryAt)
    out[#out + 1] = status
    out[#out + 1] = retryAt
    for i = 1, n do out[#out + 1] = used[i] end
  end
  local banUntil = tonumber(redis.call('GET', ban) or '0')
  if peek then return reply(0, banUntil) end
  if banUntil > now then return reply(2, banUntil) end
  local blocking = 0
  for i = 1, n do
    if used[i] + cost > limits[i] and (blocking == 0 or ends[i] > ends[blocking]) then blocking = i end
  end
  if blocking == 0 then
    for i = 1, n do
      used[i] = redis.call('HINCRBY', keys[i], 'n', cost)
      -- A window's key lives as long as its window: its expiry is set once, by its first count.
      if used[i] == cost then redis.call('PEXPIRE', keys[i], ends[i] - now + grace) end
    end
    return reply(0, 0)
  end
  if not bans then return reply(1, ends[blocking]) end
  local window = keys[blocking]
  local rejected = redis.call('HINCRBY', window, 'r', 1)
  redis.call('PEXPIRE', window, ends[blocking] - now + grace)
  if rejected > threshold then
    redis.call('HSET', window, 'r', 0)
    banUntil = now + banMs
    redis.call('SET', ban, banUntil, 'PX', banMs + grace)
    return reply(2, banUntil)
  end
  return reply(1, ends[blocking])
end

local k, a = 1, 5
while a <= #ARGV do
  local n = tonumber(ARGV[a + 3])
  apply(k, a)
  k = k + 1 + n
  a = a + 4 + 2 * n
end
return out
`.trim();

const CONSUME_SHA = createHash('sha1').update(CONSUME_SCRIPT).digest('hex');
const STATUSES: readonly RateLimitStatus[] = ['allowed', 'limited', 'banned'];
/** Requests per script call: a call holds Redis, and every other client's command, until it ends. */
const MAX_BATCH = 256;

interface Queued {
  key: string;
  windows: readonly WindowSpec[];
  charge: Charge | undefined;
  resolve(outcome: RateLimitOutcome): void;
  reject(err: unknown): void;
}

// One EVALSHA per event-loop turn: ioredis's auto-pipelining flushes after each socket callback.
export class RedisRateLimitStorage
  extends RateLimitStorage
  implements OnModuleInit, OnApplicationShutdown
{
  readonly connection: RedisConnection;
  readonly redis: RedisClient;
  private readonly logger = new Logger(RedisRateLimitStorage.name);
  private healthy = true;
  private queued: Queued[] = [];
  private readonly connectTimeoutMs: number;

  constructor(
    private readonly config: RedisConfig,
    private readonly ban: BanPolicy,
    private readonly clock: Clock = new SystemClock(),
    private readonly namespace = '',
  ) {
    super();
    this.connection = new RedisConnection(config);
    this.redis = this.connection.client;
    this.connectTimeoutMs = this.connection.connectTimeoutMs;
    this.redis.on('error', (err: Error) => this.markDown(err));
    this.redis.on('ready', () => this.markUp());
  }

  private markDown(err: unknown): void {
    if (!this.healthy) return;
    this.healthy = false;
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn(`Redis for rate limiting does not answer: ${reason}`);
  }

  private markUp(): void {
    if (this.healthy) return;
    this.healthy = true;
    this.connection.noteMasters();
    this.logger.log('Redis for rate limiting answers again');
  }

  async onModuleInit(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, this.connectTimeoutMs)),
    );
    const start = (async () => {
      await this.connection.connect();
      await this.loadScript();
    })().catch(() => {
      // Logged by the 'error' listener; requests fail open or closed until Redis answers.
    });
    await Promise.race([start, timeout]);
    clearTimeout(timer);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  async ping(): Promise<void> {
    try {
      await this.connection.ping();
    } catch (err) {
      throw new RateLimitStoreUnavailableError(err);
    }
  }

  clientKey(client: string): string {
    return clientKey(this.config.keyPrefix, this.namespace, client);
  }

  consume(
    key: string,
    windows: readonly WindowSpec[],
    charge: Charge = ONE_REQUEST,
  ): Promise<RateLimitOutcome> {
    return this.enqueue(key, windows, charge);
  }

  // Queued with the turn's consumes, so a peek beside a count costs no round trip of its own.
  peek(key: string, windows: readonly WindowSpec[]): Promise<RateLimitOutcome> {
    return this.enqueue(key, windows, undefined);
  }

  private enqueue(
    key: string,
    windows: readonly WindowSpec[],
    charge: Charge | undefined,
  ): Promise<RateLimitOutcome> {
    return new Promise((resolve, reject) => {
      if (this.queued.push({ key, windows, charge, resolve, reject }) === 1)
        setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    for (const group of this.connection.cluster ? byCaller(queued) : [queued])
      for (let start = 0; start < group.length; start += MAX_BATCH)
        void this.send(group.slice(start, start + MAX_BATCH));
  }

  private async send(batch: readonly Queued[]): Promise<void> {
    const now = Math.floor(this.clock.now());
    const keys: string[] = [];
    const args: number[] = [now, this.ban.threshold, this.ban.durationMs, KEY_GRACE_MS];
    for (const { key, windows, charge } of batch) {
      const client = this.clientKey(key);
      keys.push(`${client}:ban`);
      if (charge === undefined) args.push(1, 0, 0, windows.length);
      else args.push(0, charge.cost, charge.bans ? 1 : 0, windows.length);
      for (const window of windows) {
        keys.push(`${client}:${counterOf(window)}:${windowIndex(window.ttlMs, now)}`);
        args.push(window.limit, windowEnd(window.ttlMs, now));
      }
    }
    let reply: number[];
    try {
      reply = (await this.evaluate(keys, args)) as number[];
    } catch (err) {
      for (const queued of batch) queued.reject(err);
      return;
    }
    let at = 0;
    for (const { windows, charge, resolve } of batch) {
      const status = STATUSES[reply[at]];
      const retryAt = reply[at + 1];
      const used = at + 2;
      at = used + windows.length;
      if (charge === undefined) {
        resolve(peekOutcome(windows, now, reply.slice(used, at), retryAt));
        continue;
      }
      resolve({
        status,
        now,
        windows: windows.map((window, i) =>
          windowUsage(window, reply[used + i], windowEnd(window.ttlMs, now)),
        ),
        retryAt,
      });
    }
  }

  // On a Cluster every master gets the script; a replica promoted later learns it at its NOSCRIPT.
  private async loadScript(): Promise<void> {
    const client = this.redis;
    if (client instanceof Cluster)
      await Promise.all(client.nodes('master').map((node) => node.script('LOAD', CONSUME_SCRIPT)));
    else await client.script('LOAD', CONSUME_SCRIPT);
  }

  private async evaluate(keys: string[], args: number[]): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    // The contract's bound whatever the topology: a Cluster client retries through a failover.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${this.deadlineMs} ms`)),
        this.deadlineMs,
      );
    });
    try {
      return await Promise.race([this.evaluateOnce(keys, args), deadline]);
    } catch (err) {
      this.markDown(err);
      throw new RateLimitStoreUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  private get deadlineMs(): number {
    return this.config.commandTimeoutMs + this.connectTimeoutMs;
  }

  private async evaluateOnce(keys: string[], args: number[]): Promise<unknown> {
    let reply: unknown;
    try {
      reply = await this.redis.evalsha(CONSUME_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      // After a restart, failover or SCRIPT FLUSH, Redis no longer knows the script.
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      await this.loadScript();
      reply = await this.redis.evalsha(CONSUME_SHA, keys.length, ...keys, ...args);
    }
    this.markUp();
    return reply;
  }
}

/** The `{…}` hash tag keeps a caller's keys in one slot; the prefix stays outside it. */
export function clientKey(prefix: string, namespace: string, client: string): string {
  return `${prefix}${namespace}{${client}}`;
}

function byCaller(queued: readonly Queued[]): Queued[][] {
  const groups = new Map<string, Queued[]>();
  for (const entry of queued) {
    const group = groups.get(entry.key);
    if (group === undefined) groups.set(entry.key, [entry]);
    else group.push(entry);
  }
  return [...groups.values()];
}
