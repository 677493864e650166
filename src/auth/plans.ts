export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface Quota {
  perMinute: number;
  perDay: number;
}

export const PLAN_QUOTAS: Record<Exclude<Plan, 'enterprise'>, Quota> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function quotaFor(
  plan: Plan,
  overrides: { perMinute: number | null; perDay: number | null },
): Quota {
  if (plan === 'enterprise') {
    if (overrides.perMinute === null || overrides.perDay === null) {
      throw new Error('an enterprise key must carry per-minute and per-day limits');
    }
    return { perMinute: overrides.perMinute, perDay: overrides.perDay };
  }
  const base = PLAN_QUOTAS[plan];
  return {
    perMinute: overrides.perMinute ?? base.perMinute,
    perDay: overrides.perDay ?? base.perDay,
  };
}
