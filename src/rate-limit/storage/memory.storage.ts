import { Clock, SystemClock } from '../clock.js';
import {
  applyRequest,
  type BanPolicy,
  type ClientState,
  type RateLimitOutcome,
  type WindowSpec,
} from '../rate-limit.policy.js';
import { currentCount, peekOutcome } from '../rate-limit.peek.js';
import { RateLimitStorage } from './rate-limit.storage.js';

interface Entry extends ClientState {
  /** Epoch ms after which nothing in the entry matters any more: its last window's end or its ban's. */
  expiresAt: number;
}

export const DEFAULT_MAX_CLIENTS = 200_000;
/** Expired entries dropped per request: more than one, so a backlog drains while clients arrive. */
const EVICTIONS_PER_REQUEST = 4;

/**
 * Counters of one process. Besides the Map, a queue records (key, expiry) each time a client's
 * expiry grows, which happens at most once per window; expiries only grow with time, so the queue
 * front holds the first to expire and each request evicts a few expired clients from there. A
 * queued expiry the client has since outgrown is stale and skipped. Every request is O(1)
 * (amortised) and no timer is ever set. At `maxClients` the client expiring first is dropped to
 * make room, trading its counts for a hard memory bound; for more clients, or fleets, use Redis.
 */
export class MemoryRateLimitStorage extends RateLimitStorage {
  private readonly entries = new Map<string, Entry>();
  private queuedKeys: string[] = [];
  private queuedExpiries: number[] = [];
  private head = 0;

  constructor(
    private readonly ban: BanPolicy,
    private readonly clock: Clock = new SystemClock(),
    private readonly maxClients = DEFAULT_MAX_CLIENTS,
  ) {
    super();
  }

  /** Clients currently tracked. */
  get size(): number {
    return this.entries.size;
  }

  consume(key: string, windows: readonly WindowSpec[]): RateLimitOutcome {
    const now = this.clock.now();
    this.evict(now, EVICTIONS_PER_REQUEST);
    let entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= now) {
      if (entry === undefined && this.entries.size >= this.maxClients) this.evict(Infinity, 1);
      entry = { windows: [], banUntil: 0, expiresAt: 0 };
      this.entries.set(key, entry);
    }
    const outcome = applyRequest(entry, windows, now, this.ban);
    let expiresAt = entry.banUntil;
    for (const window of outcome.windows) expiresAt = Math.max(expiresAt, window.resetAt);
    if (expiresAt > entry.expiresAt) {
      entry.expiresAt = expiresAt;
      this.queuedKeys.push(key);
      this.queuedExpiries.push(expiresAt);
    }
    return outcome;
  }

  peek(key: string, windows: readonly WindowSpec[]): RateLimitOutcome {
    const now = this.clock.now();
    const entry = this.entries.get(key);
    const live = entry !== undefined && entry.expiresAt > now ? entry : undefined;
    return peekOutcome(
      windows,
      now,
      windows.map((spec, i) => currentCount(spec, now, live?.windows[i])),
      live?.banUntil ?? 0,
    );
  }

  /** Drops up to `budget` clients from the queue front whose expiry is at or before `until`. */
  private evict(until: number, budget: number): void {
    while (budget > 0 && this.head < this.queuedKeys.length) {
      const key = this.queuedKeys[this.head];
      const expiresAt = this.queuedExpiries[this.head];
      const entry = this.entries.get(key);
      const stale = entry === undefined || entry.expiresAt !== expiresAt;
      if (!stale && expiresAt > until) break;
      this.head += 1;
      if (!stale) {
        this.entries.delete(key);
        budget -= 1;
      }
    }
    if (this.head > 1024 && this.head * 2 > this.queuedKeys.length) {
      this.queuedKeys = this.queuedKeys.slice(this.head);
      this.queuedExpiries = this.queuedExpiries.slice(this.head);
      this.head = 0;
    }
  }
}
