import type { Command } from './command.js';
import { readRowsFile, storeRows } from './import-file.js';

const importOrders: Command = {
  path: ['orders', 'import'],
  args: ['FILE'],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    'Upsert orders by id from a JSON array of {id, petId, quantity, status, shipDate?, complete?}.\n' +
    'status: placed | approved | delivered; every petId must be in the catalogue.\n' +
    'A relative FILE is read from the folder the command was typed in.\n' +
    'Every row is checked first; then all rows are stored in one transaction, or none.',
  async run(ctx, { args, options }) {
    const file = args.FILE;
    const { OrdersImporter, parseOrdersFile } = await import('../orders/orders.importer.js');
    const rows = await readRowsFile(ctx, file, parseOrdersFile);
    const importer = await ctx.get(OrdersImporter);
    await storeRows(
      ctx,
      file,
      { count: rows.length, noun: 'order', nouns: 'orders' },
      options.json === true,
      () => importer.import(rows),
    );
  },
};

export const ORDERS_COMMANDS: readonly Command[] = [importOrders];
