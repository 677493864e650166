import type { ThrottlerStorage } from '@nestjs/throttler';
import {
  ONE_REQUEST,
  type Charge,
  type RateLimitOutcome,
  type WindowSpec,
} from '../rate-limit.policy.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export class RateLimitStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `Rate-limit store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'RateLimitStoreUnavailableError';
  }
}

// throttler's `increment` is `consume` for one window, so a stock ThrottlerGuard here also bans.
export abstract class RateLimitStorage implements ThrottlerStorage {
  /** A store in this process answers synchronously: the request then waits no event-loop turn. */
  abstract consume(
    key: string,
    windows: readonly WindowSpec[],
    charge?: Charge,
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

  abstract peek(
    key: string,
    windows: readonly WindowSpec[],
  ): RateLimitOutcome | Promise<RateLimitOutcome>;

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
