import type { Command } from './command.js';
import { notImported, readRowsFile } from './import-file.js';

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
    const { OrdersImporter, parseOrdersFile } = await import('../orders/orders.importer.js');
    const rows = await readRowsFile(file, parseOrdersFile);
    const importer = await ctx.get(OrdersImporter);
    let result;
    try {
      result = await importer.import(rows);
    } catch (err) {
      throw await notImported(file, err);
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
