// The window maths every storage shares (the Redis Lua script mirrors `applyRequest`). Windows are
// aligned to the Unix epoch, which has no leap seconds: a day window is the UTC day, and every
// instance agrees on when a window resets.

export interface WindowSpec {
  name: string;
  ttlMs: number;
  limit: number;
  /** The counter's identity where it is not the name: a route with its own limit keeps its own. */
  counter?: string;
}

export const counterOf = (spec: WindowSpec): string => spec.counter ?? spec.name;

/** How a request is charged: `cost` units in every window, all or nothing; `bans` false never bans. */
export interface Charge {
  cost: number;
  bans: boolean;
}

export const ONE_REQUEST: Charge = Object.freeze({ cost: 1, bans: true });

/** More than `threshold` rejected requests within one window ban the client for `durationMs`. */
export interface BanPolicy {
  threshold: number;
  durationMs: number;
}

export interface WindowCounter {
  /** Whose count this is (`counterOf`). */
  id: string;
  /** Which window (⌊now / ttlMs⌋) the counts belong to; older counts are stale. */
  index: number;
  used: number;
  /** Requests rejected because this window was exhausted, since the last ban. */
  rejected: number;
}

export interface ClientState {
  /** Few (a plan's windows, and any a route keeps of its own): found by a scan. */
  windows: WindowCounter[];
  /** Epoch ms the current ban ends; 0 or past when not banned. */
  banUntil: number;
}

export function counterIn(state: ClientState, id: string): WindowCounter | undefined {
  for (const counter of state.windows) if (counter.id === id) return counter;
  return undefined;
}

export type RateLimitStatus = 'allowed' | 'limited' | 'banned';

export interface WindowUsage extends WindowSpec {
  used: number;
  resetAt: number;
}

export interface RateLimitOutcome {
  status: RateLimitStatus;
  now: number;
  windows: WindowUsage[];
  /** Epoch ms the client may retry: the blocking window's end, or the ban's end. 0 when allowed. */
  retryAt: number;
}

export function windowIndex(ttlMs: number, now: number): number {
  return Math.floor(now / ttlMs);
}

// Every store builds its windows here, so all outcomes share one hidden class
// (docs/performance.md).
export function windowUsage(spec: WindowSpec, used: number, resetAt: number): WindowUsage {
  return { name: spec.name, ttlMs: spec.ttlMs, limit: spec.limit, used, resetAt };
}

export function windowEnd(ttlMs: number, now: number): number {
  return (windowIndex(ttlMs, now) + 1) * ttlMs;
}

// Only accepted requests count, so knocking on an exhausted minute does not burn the day. A
// rejection is charged to the exhausted window ending last (only then would it pass). A banned
// client's requests change nothing, so the ban ends when it said it would. A request costing more
// than one unit is accepted only if every window has room for all of it.
export function applyRequest(
  state: ClientState,
  specs: readonly WindowSpec[],
  now: number,
  ban: BanPolicy,
  charge: Charge = ONE_REQUEST,
): RateLimitOutcome {
  const counters: WindowCounter[] = [];
  let blocking = -1;
  for (let i = 0; i < specs.length; i++) {
    const index = windowIndex(specs[i].ttlMs, now);
    const id = counterOf(specs[i]);
    let counter = counterIn(state, id);
    if (counter === undefined) state.windows.push((counter = { id, index, used: 0, rejected: 0 }));
    else if (counter.index !== index) {
      counter.index = index;
      counter.used = counter.rejected = 0;
    }
    counters.push(counter);
    if (
      counter.used + charge.cost > specs[i].limit &&
      (blocking < 0 || end(specs, counters, i) > end(specs, counters, blocking))
    ) {
      blocking = i;
    }
  }

  let status: RateLimitStatus;
  let retryAt = 0;
  if (state.banUntil > now) {
    status = 'banned';
    retryAt = state.banUntil;
  } else if (blocking < 0) {
    status = 'allowed';
    for (const counter of counters) counter.used += charge.cost;
  } else if (charge.bans && ++counters[blocking].rejected > ban.threshold) {
    // The count starts afresh, so a client back from a ban has the whole threshold again.
    counters[blocking].rejected = 0;
    status = 'banned';
    retryAt = state.banUntil = now + ban.durationMs;
  } else {
    status = 'limited';
    retryAt = end(specs, counters, blocking);
  }

  const windows: WindowUsage[] = [];
  for (let i = 0; i < specs.length; i++)
    windows.push(windowUsage(specs[i], counters[i].used, end(specs, counters, i)));
  return { status, now, windows, retryAt };
}

function end(specs: readonly WindowSpec[], counters: readonly WindowCounter[], i: number): number {
  return (counters[i].index + 1) * specs[i].ttlMs;
}
