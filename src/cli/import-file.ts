import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ImportResult } from '../common/import/json-rows.js';
import { CommandError, plural, type CommandContext } from './command.js';

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
};

export async function readRowsFile<T>(
  ctx: CommandContext,
  file: string,
  parse: (text: string) => T[],
): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CommandError(`cannot read ${file}: ${READ_FAILURES[code] ?? (err as Error).message}`);
  }
  try {
    // Editors on Windows often save JSON with a byte order mark, which JSON itself does not allow.
    return parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw await notImported(file, err);
  }
}

async function notImported(file: string, err: unknown): Promise<CommandError> {
  const { ImportError } = await import('../common/import/json-rows.js');
  const detail =
    err instanceof ImportError ? `\n  ${err.problems.join('\n  ')}` : ` ${(err as Error).message}`;
  return new CommandError(`${file} was not imported (nothing was changed):${detail}`);
}

export async function storeRows(
  ctx: CommandContext,
  file: string,
  rows: { count: number; noun: string; nouns: string },
  json: boolean | undefined,
  store: () => Promise<ImportResult>,
): Promise<void> {
  let result: ImportResult;
  try {
    result = await store();
  } catch (err) {
    throw await notImported(file, err);
  }
  if (json) {
    ctx.out(JSON.stringify({ file, rows: rows.count, ...result }));
    return;
  }
  ctx.out(
    `Imported ${plural(rows.count, rows.noun, rows.nouns)} from ${file}: ${result.inserted} inserted, ${result.updated} updated.`,
  );
}
