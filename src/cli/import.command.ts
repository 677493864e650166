import { readFile } from 'node:fs/promises';
import type { ImportRow } from '../inventory/inventory.repository.js';
import { type Command, CommandError, type CommandContext } from './command.js';

/** Files at least this long report progress, every tenth of the way. */
const PROGRESS_MIN_ROWS = 10_000;

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
};

async function readImportFile(file: string): Promise<ImportRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CommandError(`cannot read ${file}: ${READ_FAILURES[code] ?? (err as Error).message}`);
  }
  const { ImportError, parseImportFile } = await import('../inventory/inventory.importer.js');
  try {
    // Editors on Windows often save JSON with a byte order mark, which JSON itself does not allow.
    return parseImportFile(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    throw new CommandError(
      `${file} was not imported (nothing was changed):\n  ${err.problems.join('\n  ')}`,
    );
  }
}

function progressReporter(
  ctx: CommandContext,
  total: number,
): ((done: number) => void) | undefined {
  if (total < PROGRESS_MIN_ROWS) return undefined;
  let nextTenth = 1;
  return (done) => {
    if (done * 10 < nextTenth * total) return;
    nextTenth = Math.floor((done * 10) / total) + 1;
    ctx.err(`Writing rows: ${done}/${total} (${Math.floor((done * 100) / total)}%)`);
  };
}

const importInventory: Command = {
  path: ['inventory', 'import'],
  args: ['FILE'],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    'Upsert stock levels from a JSON array of {petId, quantity, status, name?}.\n' +
    'Every row is checked first; then all rows are stored in one transaction, or none.',
  async run(ctx, { args, options }) {
    const file = args.FILE;
    const rows = await readImportFile(file);
    const { InventoryImporter } = await import('../inventory/inventory.importer.js');
    const importer = await ctx.get(InventoryImporter);
    const onProgress = progressReporter(ctx, rows.length);
    if (onProgress) ctx.err(`Importing ${rows.length} rows from ${file} ...`);

    let result;
    try {
      result = await importer.import(rows, onProgress);
    } catch (err) {
      throw new CommandError(
        `${file} was not imported (nothing was changed): ${(err as Error).message}`,
      );
    }
    if (options.json) {
      ctx.out(JSON.stringify({ file, rows: rows.length, ...result }));
      return;
    }
    ctx.out(
      `Imported ${rows.length} rows from ${file}: ${result.inserted} inserted, ${result.updated} updated.`,
    );
  },
};

export const INVENTORY_COMMANDS: readonly Command[] = [importInventory];
