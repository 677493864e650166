export type AttemptOutcome =
  'delivered' | 'http_error' | 'timeout' | 'connection_error' | 'blocked';

export type AfterFailure =
  { action: 'retry'; delayMs: number } | { action: 'disable'; reason: string };

export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** RFC 9110 §10.2.3; capped, so a receiver cannot park an endpoint for years. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

export function afterFailure(
  failures: number,
  schedule: readonly number[],
  answer: { status?: number; retryAfterMs?: number },
  random: number,
): AfterFailure {
  if (answer.status === 410) return { action: 'disable', reason: 'the endpoint answered 410 Gone' };
  if (failures > schedule.length)
    return {
      action: 'disable',
      reason: `${failures} attempts failed (the retry schedule is exhausted)`,
    };
  const base = schedule[failures - 1] * 1000;
  let delayMs = Math.round(base * (1 + 0.2 * random));
  if ((answer.status === 429 || answer.status === 503) && answer.retryAfterMs !== undefined)
    delayMs = Math.max(delayMs, answer.retryAfterMs);
  return { action: 'retry', delayMs };
}
