import { Injectable } from '@nestjs/common';
import { NotFoundError, PreconditionFailedError } from '../common/errors/api-error.js';
import type { InventoryItem } from './dto/inventory-item.dto.js';
import type { InventoryRow } from './inventory-row.js';
import type { InventoryListing } from './listing/inventory-listing.js';
import { ListingCache } from './listing/listing-cache.js';
import { InventoryRepository } from './writes/inventory.repository.js';
import { itemEtag, type IfMatch } from './writes/preconditions.js';
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

function tagged(row: InventoryRow): TaggedItem {
  return {
    item: { petId: BigInt(row.petId), quantity: Number(row.quantity), status: row.status },
    etag: itemEtag(row),
  };
}

@Injectable()
export class InventoryService {
  constructor(
    private readonly repository: InventoryRepository,
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
    const outcome = await this.repository.write({
      petId,
      quantity: update.quantity,
      ifMatch,
      reason: update.reason ?? null,
      reference: update.reference ?? null,
      caller,
    });
    if (outcome.kind === 'not_found') throw new NotFoundError(`No pet with id ${petId}`);
    if (outcome.kind === 'precondition_failed') {
      const current = tagged(outcome.row);
      throw new PreconditionFailedError(
        `The item changed: its ETag is now ${current.etag}`,
        current.item,
      );
    }
    if (outcome.version !== undefined) this.cache.noteWrite(outcome.version, outcome.row);
    return tagged(outcome.row);
  }
}
