import { plural, type Command, type CommandContext } from './command.js';
import { inventoryHistory } from './history.command.js';
import { readRowsFile, storeRows } from './import-file.js';

const PROGRESS_MIN_ROWS = 10_000;

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
    'A relative FILE is read from the folder the command was typed in.\n' +
    'Every row is checked first; then all rows are stored in one transaction, or none.',
  async run(ctx, { args, options }) {
    const file = args.FILE;
    const { InventoryImporter, parseImportFile } =
      await import('../inventory/inventory.importer.js');
    const rows = await readRowsFile(ctx, file, parseImportFile);
    const importer = await ctx.get(InventoryImporter);
    const onProgress = progressReporter(ctx, rows.length);
    if (onProgress) ctx.err(`Importing ${plural(rows.length, 'row')} from ${file} ...`);
    await storeRows(
      ctx,
      file,
      { count: rows.length, noun: 'row', nouns: 'rows' },
      options.json === true,
      () => importer.import(rows, onProgress),
    );
  },
};

export const INVENTORY_COMMANDS: readonly Command[] = [importInventory, inventoryHistory];
