import { ApiError } from './errors.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

interface Budget {
  /** Requests the client may still send before `resetAt`, those in flight already deducted. */
  remaining: number;
  /** Epoch ms the window with the least remaining resets. */
  resetAt: number;
}

/**
 * Keeps a client under its rate limit, so the service never has to refuse it (and a run of
 * refusals never earns the key a ban). It learns the budget from each answer's
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (the window with the least remaining), deducts
 * every request it lets out, and holds a request back while nothing is left until that window
 * resets. While the budget is unknown (at first, and after a reset) one request goes out alone to
 * learn it; answers without the headers (limiting switched off) lift the gate.
 */
export class Pacer {
  private budget: Budget | undefined;
  private unlimited = false;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly now: () => number,
    private readonly sleep: Sleep,
  ) {}

  /**
   * Waits until a request may go out without being refused, and reserves it; every `acquire`
   * must be followed by one `release`. A wait that would end after `deadline` throws the
   * rate-limit error the service would have answered, without asking it.
   */
  async acquire(deadline: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      if (this.budget && now >= this.budget.resetAt) this.budget = undefined;
      if (this.unlimited) break;
      if (this.budget === undefined ? this.inFlight === 0 : this.budget.remaining > 0) {
        if (this.budget) this.budget.remaining -= 1;
        break;
      }
      if (this.inFlight > 0) {
        // An answer on its way tells more than the clock: wait for it, then decide again.
        await this.released(signal);
        continue;
      }
      const resetAt = this.budget!.resetAt;
      if (resetAt >= deadline) {
        const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
        throw new ApiError({
          status: 429,
          code: 'rate_limit_exceeded',
          message: `The rate limit is used up until ${new Date(resetAt).toISOString()}, after the call's deadline; not sent`,
          retryAfter,
        });
      }
      await this.sleep(resetAt - now, signal);
    }
    this.inFlight += 1;
  }

  /** Ends a reservation, with the answer's headers when one arrived. */
  release(headers?: Headers, status?: number): void {
    this.inFlight -= 1;
    if (headers) this.observe(headers, status);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Holds every request until `until` (epoch ms): the service asked to wait that long. */
  holdUntil(until: number): void {
    this.unlimited = false;
    this.budget = { remaining: 0, resetAt: until };
  }

  /** Learns from an answer to a request that was not reserved (one the service does not count). */
  observe(headers: Headers, status?: number): void {
    const remaining = integer(headers.get('x-ratelimit-remaining'));
    const reset = integer(headers.get('x-ratelimit-reset'));
    if (remaining === undefined || reset === undefined) {
      // A 503 from a limiter whose store is down carries no counts: that says nothing of the quota.
      if (status !== undefined && status < 500) this.unlimited = true;
      return;
    }
    this.unlimited = false;
    const resetAt = reset * 1000;
    // Requests still in flight may not be in the answer's count yet: deduct them too. Answers
    // can arrive out of order, so within one window the smallest budget seen wins.
    const fresh = Math.max(0, remaining - this.inFlight);
    if (this.now() >= resetAt) return;
    if (!this.budget || resetAt > this.budget.resetAt) this.budget = { remaining: fresh, resetAt };
    else if (resetAt === this.budget.resetAt)
      this.budget.remaining = Math.min(this.budget.remaining, fresh);
  }

  private released(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

function integer(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}
