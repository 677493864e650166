// Windows align to the Unix epoch (no leap seconds), so every instance agrees when one resets.

export interface WindowSpec {
  name: string;
  ttlMs: number;
  limit: number;
  counter?: string;
}

export const counterOf = (spec: WindowSpec): string => spec.counter ?? spec.name;

export interface Charge {
  cost: number;
  bans: boolean;
}

export const ONE_REQUEST: Charge = Object.freeze({ cost: 1, bans: true });

export interface BanPolicy {
  threshold: number;
  durationMs: number;
}

export interface WindowCounter {
  id: string;
  index: number;
  used: number;
  rejected: number;
}

export interface ClientState {
  windows: WindowCounter[];
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
  retryAt: number;
}

export function windowIndex(ttlMs: number, now: number): number {
  return Math.floor(now / ttlMs);
}

// One hidden class for all outcomes (docs/performance.md).
export function windowUsage(spec: WindowSpec, used: number, resetAt: number): WindowUsage {
  return { name: spec.name, ttlMs: spec.ttlMs, limit: spec.limit, used, resetAt };
}

export function windowEnd(ttlMs: number, now: number): number {
  return (windowIndex(ttlMs, now) + 1) * ttlMs;
}

// Only accepted requests count, so knocking on an exhausted minute does not burn the day.
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
