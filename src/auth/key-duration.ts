const HOUR_MS = 3_600_000;
const UNIT_HOURS = { h: 1, d: 24 } as const;
type Unit = keyof typeof UNIT_HOURS;

export interface DurationRule {
  units: readonly Unit[];
  minHours: number;
  maxHours: number;
  example: string;
}

export const EXPIRES_IN: DurationRule = {
  units: ['d', 'h'],
  minHours: 1,
  maxHours: 10 * 365 * 24,
  example: '30d or 12h',
};

export const GRACE: DurationRule = {
  units: ['h'],
  minHours: 0,
  maxHours: 30 * 24,
  example: '24h',
};

function inUnit(hours: number, units: readonly Unit[]): string {
  return units.includes('d') && hours % 24 === 0 ? `${hours / 24}d` : `${hours}h`;
}

export function parseKeyDuration(value: string, rule: DurationRule): number | { error: string } {
  const match = /^(\d{1,6})([a-z])$/.exec(value);
  const hours = match ? Number(match[1]) * (UNIT_HOURS[match[2] as Unit] ?? NaN) : NaN;
  if (
    !match ||
    !rule.units.includes(match[2] as Unit) ||
    !(hours >= rule.minHours && hours <= rule.maxHours)
  ) {
    const units = rule.units.map((unit) => (unit === 'h' ? 'hours' : 'days')).join(' or ');
    return {
      error:
        `must be a whole number of ${units} such as ${rule.example}, from ` +
        `${inUnit(rule.minHours, rule.units)} to ${inUnit(rule.maxHours, rule.units)} (got ${JSON.stringify(value)})`,
    };
  }
  return hours * HOUR_MS;
}
