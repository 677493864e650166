import type { ParseArgsConfig } from 'node:util';
import type { Type } from '@nestjs/common';
import { terminalSafe } from './terminal-text.js';

export class UsageError extends Error {
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.showUsage = options.showUsage ?? true;
  }
}

export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface CommandContext {
  out(line: string): void;
  err(line: string): void;
  get<T>(type: Type<T>): Promise<T>;
  cwd: string;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandInput {
  args: Record<string, string>;
  options: OptionValues;
}

export interface Command {
  path: readonly string[];
  args: readonly string[];
  options: NonNullable<ParseArgsConfig['options']>;
  synopsis: string;
  description: string;
  // Imports the app's modules lazily, so --help and usage errors answer at once.
  run(ctx: CommandContext, input: CommandInput): Promise<void>;
}

export function parseIntegerArg(label: string, value: string, min: number, max: number): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    const range =
      min === 1 ? `a positive integer, at most ${max}` : `an integer from ${min} to ${max}`;
    throw new UsageError(`${label} must be ${range} (got ${JSON.stringify(value)})`);
  }
  return n;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

export function optionString(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

export function table(header: string[], cells: string[][]): string[] {
  const rows = cells.map((row) => row.map(terminalSafe));
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i].length)),
  );
  return [header, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}
