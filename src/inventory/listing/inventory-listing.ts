import { createHash } from 'node:crypto';
import type { InventoryRow } from '../inventory-row.js';

/** The listing's body: InventoryItems by ascending petId; the ids are already exact decimal text. */
export function inventoryItemsJson(rows: readonly InventoryRow[]): string {
  let json = '[';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    json += `${i === 0 ? '' : ','}{"petId":${row.petId},"quantity":${row.quantity},"status":"${row.status}"}`;
  }
  return `${json}]`;
}

/** The listing at one version of the write counter, serialised once. */
export class InventoryListing {
  readonly body: Buffer;
  /** A strong validator (RFC 9110 §8.8.3): equal listings, equal tags, on every instance. */
  readonly etag: string;
  private readonly byId: Map<string, InventoryRow>;

  constructor(
    readonly version: bigint,
    rows: readonly InventoryRow[],
  ) {
    this.body = Buffer.from(inventoryItemsJson(rows), 'utf8');
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 22)}"`;
    this.byId = new Map(rows.map((row) => [row.petId, row]));
  }

  item(petId: bigint): InventoryRow | undefined {
    return this.byId.get(petId.toString());
  }
}
