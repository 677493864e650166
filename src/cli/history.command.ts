import type { ChangeRow } from '../inventory/history/change-record.js';
import { type Command, CommandError, table, UsageError } from './command.js';

const PAGE = 1000;

const from = (previous: unknown, next: unknown) =>
  previous === null ? `${next}` : `${previous} -> ${next}`;

export const inventoryHistory: Command = {
  path: ['inventory', 'history'],
  args: ['PET_ID'],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    "Print a pet's stock history, oldest first: every change of its quantity or status, with\n" +
    'reason, reference, source (api | import), key id and request id (--json: one JSON array).',
  async run(ctx, { args, options }) {
    const { parseInt64Id } = await import('../common/pipes/pet-id.pipe.js');
    const petId = parseInt64Id(args.PET_ID);
    if (petId === undefined)
      throw new UsageError(
        `PET_ID must be an integer from 1 to 9223372036854775807 (got ${JSON.stringify(args.PET_ID)})`,
      );
    const { InventoryHistoryService } =
      await import('../inventory/history/inventory-history.service.js');
    const { NotFoundError } = await import('../common/errors/api-error.js');
    const history = await ctx.get(InventoryHistoryService);
    const changes: ChangeRow[] = [];
    try {
      for (let after: string | undefined; ;) {
        const page = await history.changes({ after, limit: String(PAGE) }, petId);
        changes.push(...page.changes);
        if (page.changes.length < PAGE) break;
        after = page.next;
      }
    } catch (err) {
      if (err instanceof NotFoundError) throw new CommandError(err.message);
      throw err;
    }
    if (options.json) {
      const { inventoryChangesJson } =
        await import('../inventory/history/dto/inventory-change.dto.js');
      ctx.out(inventoryChangesJson(changes));
      return;
    }
    if (changes.length === 0) {
      ctx.out(`No changes kept for pet ${petId}.`);
      return;
    }
    const header = [
      'ID',
      'CHANGED',
      'QUANTITY',
      'STATUS',
      'REASON',
      'REFERENCE',
      'SOURCE',
      'KEY',
      'REQUEST',
    ];
    const rows = changes.map((change) => [
      String(change.id),
      new Date(change.changedAt).toISOString(),
      from(change.previousQuantity, change.quantity),
      from(change.previousStatus, change.status),
      change.reason ?? '-',
      change.reference ?? '-',
      change.source,
      change.keyId === null ? '-' : String(change.keyId),
      change.requestId ?? '-',
    ]);
    for (const line of table(header, rows)) ctx.out(line);
  },
};
