import { Injectable } from '@nestjs/common';
import { NotFoundError, PreconditionFailedError } from '../common/errors/api-error.js';
import type { InventoryItem } from './dto/inventory-item.dto.js';
import { type InventoryRow, itemOf, settableOf } from './inventory-row.js';
import type { InventoryListing } from './listing/inventory-listing.js';
import { ListingCache } from './listing/listing-cache.js';
import { itemEtag, type IfMatch } from './writes/preconditions.js';
import { StockLinesService } from './writes/stock-lines.service.js';
import type { Caller, ChangeReason } from './writes/stock-write.js';

export interface TaggedItem {
  item: InventoryItem;
  etag: string;
}

export interface StockUpdate {
  quantity: number;
  reason?: ChangeReason;
  reference?: string;
}

export function tagged(row: InventoryRow): TaggedItem {
  return {
    item: itemOf(row),
    etag: itemEtag(row),
  };
}

@Injectable()
export class InventoryService {
  constructor(
    private readonly stockLines: StockLinesService,
    private readonly cache: ListingCache,
  ) {}

  listInventory(): Promise<InventoryListing> {
    return this.cache.listing();
  }

  async getItem(petId: bigint): Promise<TaggedItem> {
    const row = (await this.cache.listing()).item(petId);
    if (!row) throw new NotFoundError(`No pet with id ${petId}`);
    return tagged(row);
  }

  async updateInventory(
    petId: bigint,
    update: StockUpdate,
    ifMatch: IfMatch | undefined,
    caller: Caller,
  ): Promise<TaggedItem> {
    const outcome = await this.stockLines.applyLines(
      [
        {
          petId,
          quantity: update.quantity,
          set: settableOf(update),
          ifMatch,
          reason: update.reason ?? null,
          reference: update.reference ?? null,
        },
      ],
      caller,
    );
    if (outcome.kind === 'applied') return tagged(outcome.rows[0]);
    const [refusal] = outcome.refusals;
    if (refusal.code === 'precondition_failed') {
      const current = tagged(refusal.current!);
      throw new PreconditionFailedError(
        `The item changed: its ETag is now ${current.etag}`,
        current.item,
      );
    }
    // A set of 0..2147483647 can only be refused for an unknown pet or by If-Match.
    throw new NotFoundError(`No pet with id ${petId}`);
  }
}
