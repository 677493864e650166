import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RateLimitOutcome, WindowSpec } from '../rate-limit.policy.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The store cannot answer (Redis down or too slow): the guard then fails open or closed. */
export class RateLimitStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `Rate-limit store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'RateLimitStoreUnavailableError';
  }
}

/**
 * Where counters and bans live. `consume` decides one request against every window of a client
 * and its ban in a single atomic step, which @nestjs/throttler's per-throttler `increment` cannot
 * express; `increment` is kept so the storage still serves a stock ThrottlerGuard.
 */
export abstract class RateLimitStorage implements ThrottlerStorage {
  /**
   * Counts one request of client `key` against `windows`, or rejects it. A store in this
   * process answers synchronously: the request then waits no turn of the event loop for it.
   */
  abstract consume(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  /**
   * `consume`, except that a request the client's state would accept is not counted: a refusal
   * (limited or banned) is charged exactly as `consume` charges it.
   */
  abstract refuses(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  /**
   * Client `key`'s standing in `windows` without counting anything: what the next request would
   * meet. Reading it never changes a count, a rejection tally or a ban.
   */
  abstract peek(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  /**
   * ThrottlerStorage: one epoch-aligned window of `ttl` ms. Blocking follows this storage's ban
   * policy rather than `blockDuration`: a request over the limit is rejected until the window
   * resets, and persistent retries earn the ban.
   */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const outcome = await this.consume(key, [{ name: throttlerName, ttlMs: ttl, limit }]);
    const [window] = outcome.windows;
    const accepted = outcome.status === 'allowed';
    const seconds = (at: number) => Math.max(0, Math.ceil((at - outcome.now) / 1000));
    return {
      totalHits: accepted ? window.used : window.used + 1,
      timeToExpire: seconds(window.resetAt),
      isBlocked: !accepted,
      timeToBlockExpire: accepted ? 0 : Math.max(1, seconds(outcome.retryAt)),
    };
  }
}
