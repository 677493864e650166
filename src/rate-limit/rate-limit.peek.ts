import {
  windowEnd,
  windowIndex,
  windowUsage,
  type RateLimitOutcome,
  type RateLimitStatus,
  type WindowSpec,
} from './rate-limit.policy.js';

export function peekOutcome(
  specs: readonly WindowSpec[],
  now: number,
  used: readonly number[],
  banUntil: number,
): RateLimitOutcome {
  let status: RateLimitStatus = 'allowed';
  let retryAt = 0;
  const windows = specs.map((spec, i) => {
    const resetAt = windowEnd(spec.ttlMs, now);
    const count = used[i] ?? 0;
    if (count >= spec.limit && resetAt > retryAt) {
      status = 'limited';
      retryAt = resetAt;
    }
    return windowUsage(spec, count, resetAt);
  });
  if (banUntil > now) {
    status = 'banned';
    retryAt = banUntil;
  }
  return { status, now, windows, retryAt };
}

export function currentCount(
  spec: WindowSpec,
  now: number,
  counter: { index: number; used: number } | undefined,
): number {
  return counter !== undefined && counter.index === windowIndex(spec.ttlMs, now) ? counter.used : 0;
}
