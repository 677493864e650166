import type { ValueTransformer } from 'typeorm';

/**
 * int64 columns as `bigint`. pg returns int8 as text, exact; better-sqlite3 returns a JS number,
 * rounded above 2^53, so on SQLite an int64 is read as `CAST(... AS TEXT)` (selectExact) and a
 * rounded number is refused here rather than passed on.
 */
export const INT64: ValueTransformer = {
  to: (value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  from: (value: string | number | bigint | null) => {
    if (value === null || value === undefined) return value;
    if (typeof value === 'number' && !Number.isSafeInteger(value))
      throw new Error('An int64 was read as a rounded number; select it as text');
    return BigInt(value);
  },
};
