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

// `consume` decides every window and the ban in one atomic step, which throttler's per-throttler
// `increment` cannot express; `increment` is kept so a stock ThrottlerGuard still works.
export abstract class RateLimitStorage implements ThrottlerStorage {
  /** A store in this process answers synchronously: the request then waits no event-loop turn. */
  abstract consume(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  /** `consume`, except that a request the state would accept is not counted. */
  abstract refuses(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  /** The standing the next request would meet; reading it changes no count, tally or ban. */
  abstract peek(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  // Bans follow this storage's policy, not `blockDuration`: over the limit is rejected until the
  // window resets, and persistent retries earn the ban.
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
