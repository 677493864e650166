import { readFile } from 'node:fs/promises';
import type { OrderImportRow } from '../orders/orders.repository.js';
import { type Command, CommandError } from './command.js';

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
};

async function readOrdersFile(file: string): Promise<OrderImportRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CommandError(`cannot read ${file}: ${READ_FAILURES[code] ?? (err as Error).message}`);
  }
  const [{ ImportError }, { parseOrdersFile }] = await Promise.all([
    import('../inventory/inventory.importer.js'),
    import('../orders/orders.importer.js'),
  ]);
  try {
    return parseOrdersFile(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    throw new CommandError(
      `${file} was not imported (nothing was changed):\n  ${err.problems.join('\n  ')}`,
    );
  }
}

const importOrders: Command = {
  path: ['orders', 'import'],
  args: ['FILE'],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    'Upsert orders by id from a JSON array of {id, petId, quantity, status, shipDate?, complete?}.\n' +
    'status: placed | approved | delivered; every petId must be in the catalogue.\n' +
    'Every row is checked first; then all rows are stored in one transaction, or none.',
  async run(ctx, { args, options }) {
    const file = args.FILE;
    const rows = await readOrdersFile(file);
    const [{ ImportError }, { OrdersImporter }] = await Promise.all([
      import('../inventory/inventory.importer.js'),
      import('../orders/orders.importer.js'),
    ]);
    const importer = await ctx.get(OrdersImporter);
    let result;
    try {
      result = await importer.import(rows);
    } catch (err) {
      const detail =
        err instanceof ImportError
          ? `\n  ${err.problems.join('\n  ')}`
          : ` ${(err as Error).message}`;
      throw new CommandError(`${file} was not imported (nothing was changed):${detail}`);
    }
    if (options.json) {
      ctx.out(JSON.stringify({ file, rows: rows.length, ...result }));
      return;
    }
    ctx.out(
      `Imported ${rows.length} orders from ${file}: ${result.inserted} inserted, ${result.updated} updated.`,
    );
  },
};

export const ORDERS_COMMANDS: readonly Command[] = [importOrders];
