import type { ThrottlerStorage } from '@nestjs/throttler';
import {
  ONE_REQUEST,
  type Charge,
  type RateLimitOutcome,
  type WindowSpec,
} from '../rate-limit.policy.js';

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

// `consume` decides every window of a request and the ban in one atomic step; throttler's
// `increment` is the same step for one window, so a stock ThrottlerGuard over this storage also
// bans.
export abstract class RateLimitStorage implements ThrottlerStorage {
  /** A store in this process answers synchronously: the request then waits no event-loop turn. */
  abstract consume(
    key: string,
    windows: readonly WindowSpec[],
    charge?: Charge,
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
    const outcome = await this.consume(
      key,
      [{ name: throttlerName, ttlMs: ttl, limit }],
      ONE_REQUEST,
    );
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
