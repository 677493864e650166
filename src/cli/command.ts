import type { ParseArgsConfig } from 'node:util';
import type { Type } from '@nestjs/common';

/** What was typed is wrong (unknown command or flag, missing or malformed argument): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command was understood but could not be carried out (bad file, unknown id): exit 1. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface CommandContext {
  /** Results, for the caller or a pipe. */
  out(line: string): void;
  /** Progress and notes, kept out of the results. */
  err(line: string): void;
  /** A provider of the application; the first call loads the config and opens the database. */
  get<T>(type: Type<T>): Promise<T>;
  /** Where the command was typed: relative paths in arguments are read from here. */
  cwd: string;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandInput {
  /** Positional arguments by the names in `Command.args`. */
  args: Record<string, string>;
  options: OptionValues;
}

export interface Command {
  /** The words that select the command, e.g. ['keys', 'create']. */
  path: readonly string[];
  /** Names of the required positional arguments that follow the path. */
  args: readonly string[];
  options: NonNullable<ParseArgsConfig['options']>;
  /** The options part of the synopsis, e.g. '--plan PLAN [--name LABEL]'. */
  synopsis: string;
  description: string;
  /**
   * Loads the application's modules with `await import()`, not at the top of the file, so that
   * --help and usage errors answer at once instead of after loading Nest and TypeORM.
   */
  run(ctx: CommandContext, input: CommandInput): Promise<void>;
}

/** A strictly decimal integer within [min, max]; anything else is a usage error naming the flag. */
export function parseIntegerArg(label: string, value: string, min: number, max: number): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    const range =
      min === 1 ? `a positive integer, at most ${max}` : `an integer from ${min} to ${max}`;
    throw new UsageError(`${label} must be ${range} (got ${JSON.stringify(value)})`);
  }
  return n;
}

/** `1 row`, `2 rows`: a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

export function optionString(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
