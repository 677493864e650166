import { isLosslessNumber, parse } from 'lossless-json';
import { parseInt64Id } from '../pipes/pet-id.pipe.js';

export class ImportError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ImportError';
  }
}

export interface ImportResult {
  inserted: number;
  updated: number;
}

export const IMPORT_BATCH_ROWS = 500;

export async function upsertInBatches<T>(
  rows: readonly T[],
  upsert: (batch: T[]) => Promise<number>,
  onProgress?: (done: number, total: number) => void,
): Promise<ImportResult> {
  let inserted = 0;
  for (let start = 0; start < rows.length; start += IMPORT_BATCH_ROWS) {
    const batch = rows.slice(start, start + IMPORT_BATCH_ROWS);
    inserted += await upsert(batch);
    onProgress?.(start + batch.length, rows.length);
  }
  return { inserted, updated: rows.length - inserted };
}

const MAX_REPORTED_PROBLEMS = 20;

export function rowField(row: unknown, name: string): unknown {
  return typeof row === 'object' && row !== null && !Array.isArray(row)
    ? (row as Record<string, unknown>)[name]
    : undefined;
}

export function int64Field(value: unknown): bigint | undefined {
  const text =
    typeof value === 'string' ? value : isLosslessNumber(value) ? value.value : undefined;
  return text === undefined ? undefined : parseInt64Id(text);
}

export function countField(value: unknown): number {
  return isLosslessNumber(value) && /^\d+$/.test(value.value) ? Number(value.value) : NaN;
}

export interface RowsFormat<T> {
  shape: string;
  validate(value: unknown): T | string[];
  key(value: unknown): { field: string; value: bigint | undefined };
}

// A file is stored whole or not at all: one ImportError lists the bad rows (the first 20).
export function parseJsonRows<T>(text: string, format: RowsFormat<T>): T[] {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new ImportError([`the file is not valid JSON: ${(err as Error).message}`]);
  }
  if (!Array.isArray(data))
    throw new ImportError([`the file must hold a JSON array of ${format.shape}`]);

  const rows: T[] = [];
  const problems: string[] = [];
  const firstRowByKey = new Map<bigint, number>();
  data.forEach((value, index) => {
    const result = format.validate(value);
    const rowProblems = Array.isArray(result) ? [...result] : [];
    const { field, value: key } = format.key(value);
    const earlier = key === undefined ? undefined : firstRowByKey.get(key);
    if (earlier !== undefined)
      rowProblems.push(`${field} ${key} already appears in row ${earlier}`);
    else if (key !== undefined) firstRowByKey.set(key, index + 1);
    if (rowProblems.length > 0)
      problems.push(...rowProblems.map((problem) => `row ${index + 1}: ${problem}`));
    else rows.push(result as T);
  });
  throwIfAny(problems);
  return rows;
}

export function throwIfAny(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
  if (problems.length > shown.length)
    shown.push(
      `… and ${problems.length - shown.length} more ${problems.length - shown.length === 1 ? 'problem' : 'problems'}`,
    );
  throw new ImportError(shown);
}
