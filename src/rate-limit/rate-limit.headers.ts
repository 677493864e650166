import type { RateLimitOutcome } from './rate-limit.policy.js';

export interface WindowView {
  name: string;
  limit: number;
  ttlMs: number;
  remaining: number;
  resetAt: number;
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export function windowViews(outcome: RateLimitOutcome): WindowView[] {
  return outcome.windows.map((window) => {
    const remaining = Math.max(0, window.limit - window.used);
    const view = {
      name: window.name,
      limit: window.limit,
      ttlMs: window.ttlMs,
      remaining,
      resetAt: window.resetAt,
    };
    if (outcome.status !== 'banned') return view;
    return {
      ...view,
      remaining: 0,
      resetAt: remaining === 0 ? Math.max(window.resetAt, outcome.retryAt) : outcome.retryAt,
    };
  });
}

/** The window the X-RateLimit-* headers describe: least remaining, the shorter on a tie (contract). */
export function headlineWindow(views: readonly WindowView[]): WindowView {
  return views.reduce((best, view) =>
    view.remaining < best.remaining ||
    (view.remaining === best.remaining && view.ttlMs < best.ttlMs)
      ? view
      : best,
  );
}

export function retryAfterSeconds(outcome: RateLimitOutcome): number {
  return Math.max(1, secondsUntil(outcome.retryAt, outcome.now));
}

const quoted = new Map<string, string>();

function sfString(value: string): string {
  let text = quoted.get(value);
  if (text === undefined) {
    text = `"${value.replace(/[\\"]/g, '\\$&')}"`;
    if (quoted.size < 64) quoted.set(value, text);
  }
  return text;
}

/** `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers-11, section 3): every window's quota. */
export function rateLimitPolicyHeader(
  windows: readonly { name: string; limit: number; ttlMs: number }[],
): string {
  return windows
    .map(
      (window) =>
        `${sfString(window.name)};q=${window.limit};w=${Math.max(1, Math.ceil(window.ttlMs / 1000))}`,
    )
    .join(', ');
}

// Reset is rounded up, so a client waiting for it is never early.
export function rateLimitHeaders(outcome: RateLimitOutcome): Record<string, string> {
  const views = windowViews(outcome);
  const headline = headlineWindow(views);
  return {
    'X-RateLimit-Limit': String(headline.limit),
    'X-RateLimit-Remaining': String(headline.remaining),
    'X-RateLimit-Reset': String(Math.ceil(headline.resetAt / 1000)),
    'RateLimit-Policy': rateLimitPolicyHeader(views),
    RateLimit: views
      .map(
        (view) =>
          `${sfString(view.name)};r=${view.remaining};t=${secondsUntil(view.resetAt, outcome.now)}`,
      )
      .join(', '),
  };
}
