import { createHash } from 'node:crypto';
import { encodeCursor } from '../history/change-cursor.js';
import { type InventoryRow, inventoryItemJson } from '../inventory-row.js';

/** The listing's body: InventoryItems by ascending petId. */
export function inventoryItemsJson(rows: readonly InventoryRow[]): string {
  return `[${rows.map(inventoryItemJson).join(',')}]`;
}

/** The listing at one version of the write counter, serialised once. */
export class InventoryListing {
  readonly body: Buffer;
  /** A strong validator (RFC 9110 §8.8.3): equal listings, equal tags, on every instance. */
  readonly etag: string;
  /** Where the listing stands in the change feed (X-Changes-Cursor). */
  readonly cursor: string;
  private readonly byId: Map<string, InventoryRow>;

  /**
   * `until`: when the first active hold it counts ends (Unix ms): from then on `available`
   * differs with no write, so the listing must be read again.
   */
  constructor(
    readonly version: bigint,
    rows: readonly InventoryRow[],
    readonly until?: number,
  ) {
    this.body = Buffer.from(inventoryItemsJson(rows), 'utf8');
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 22)}"`;
    this.cursor = encodeCursor(version);
    this.byId = new Map(rows.map((row) => [row.petId, row]));
  }

  validAt(now: number): boolean {
    return this.until === undefined || now < this.until;
  }

  item(petId: bigint): InventoryRow | undefined {
    return this.byId.get(petId.toString());
  }
}
