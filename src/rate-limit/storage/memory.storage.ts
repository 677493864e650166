import { Clock, SystemClock } from '../clock.js';
import {
  applyRequest,
  ONE_REQUEST,
  counterIn,
  counterOf,
  type BanPolicy,
  type Charge,
  type ClientState,
  type RateLimitOutcome,
  type WindowSpec,
} from '../rate-limit.policy.js';
import { currentCount, peekOutcome } from '../rate-limit.peek.js';
import { RateLimitStorage } from './rate-limit.storage.js';

interface Entry extends ClientState {
  expiresAt: number;
}

export const DEFAULT_MAX_CLIENTS = 200_000;
const EVICTIONS_PER_REQUEST = 4;
const BANNED_SKIPS_PER_EVICTION = 64;

// Active bans are never evicted: a banned client cannot buy its way out by making others arrive.
export class MemoryRateLimitStorage extends RateLimitStorage {
  private readonly anonymous = new Map<string, Entry>();
  private readonly identified = new Map<string, Entry>();
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

  get size(): number {
    return this.anonymous.size + this.identified.size;
  }

  private mapOf(key: string): Map<string, Entry> {
    return key.startsWith('ip:') ? this.anonymous : this.identified;
  }

  consume(
    key: string,
    windows: readonly WindowSpec[],
    charge: Charge = ONE_REQUEST,
  ): RateLimitOutcome {
    const now = this.clock.now();
    this.evict(now, EVICTIONS_PER_REQUEST);
    const map = this.mapOf(key);
    let entry = map.get(key);
    if (entry === undefined || entry.expiresAt <= now) {
      if (entry === undefined && this.size >= this.maxClients) this.makeRoom(now);
      entry = { windows: [], banUntil: 0, expiresAt: 0 };
      map.set(key, entry);
    }
    const outcome = applyRequest(entry, windows, now, this.ban, charge);
    let expiresAt = entry.banUntil;
    for (const window of outcome.windows) expiresAt = Math.max(expiresAt, window.resetAt);
    if (expiresAt > entry.expiresAt) {
      entry.expiresAt = expiresAt;
      this.queuedKeys.push(key);
      this.queuedExpiries.push(expiresAt);
      if (this.queuedKeys.length - this.head > 4 * this.maxClients + 1024) this.rebuildQueue();
    }
    return outcome;
  }

  // Forgotten clients leave stale queue records, which a long ban at the front would keep.
  private rebuildQueue(): void {
    const live: [string, number][] = [];
    for (const map of [this.anonymous, this.identified])
      for (const [key, entry] of map) live.push([key, entry.expiresAt]);
    live.sort((a, b) => a[1] - b[1]);
    this.queuedKeys = live.map(([key]) => key);
    this.queuedExpiries = live.map(([, expiresAt]) => expiresAt);
    this.head = 0;
  }

  private makeRoom(now: number): void {
    for (const map of [this.anonymous, this.identified]) {
      let skips = Math.min(BANNED_SKIPS_PER_EVICTION, map.size);
      for (const [key, entry] of map) {
        if (entry.banUntil <= now) {
          map.delete(key);
          return;
        }
        map.delete(key);
        map.set(key, entry);
        if (--skips <= 0) break;
      }
    }
  }

  peek(key: string, windows: readonly WindowSpec[]): RateLimitOutcome {
    const now = this.clock.now();
    const entry = this.mapOf(key).get(key);
    const live = entry !== undefined && entry.expiresAt > now ? entry : undefined;
    return peekOutcome(
      windows,
      now,
      windows.map((spec) => currentCount(spec, now, live && counterIn(live, counterOf(spec)))),
      live?.banUntil ?? 0,
    );
  }

  private evict(until: number, budget: number): void {
    while (budget > 0 && this.head < this.queuedKeys.length) {
      const key = this.queuedKeys[this.head];
      const expiresAt = this.queuedExpiries[this.head];
      const map = this.mapOf(key);
      const entry = map.get(key);
      const stale = entry === undefined || entry.expiresAt !== expiresAt;
      if (!stale && expiresAt > until) break;
      this.head += 1;
      if (!stale) {
        map.delete(key);
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
