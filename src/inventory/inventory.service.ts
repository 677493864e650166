import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors/api-error.js';
import { RawJson } from '../common/http/json.js';
import type { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryRepository, type InventoryRow } from './inventory.repository.js';

/** Writes rows as InventoryItem JSON directly: the ids are already exact decimal text. */
export function inventoryJson(rows: InventoryRow[]): string {
  return `[${rows.map((r) => `{"petId":${r.petId},"quantity":${r.quantity},"status":"${r.status}"}`).join(',')}]`;
}

@Injectable()
export class InventoryService {
  constructor(private readonly repository: InventoryRepository) {}

  async listInventory(): Promise<RawJson> {
    return new RawJson(inventoryJson(await this.repository.listItems()));
  }

  async updateInventory(petId: bigint, quantity: number): Promise<InventoryItem> {
    const row = await this.repository.setQuantity(petId, quantity);
    if (!row) throw new NotFoundError(`No pet with id ${petId}`);
    return { petId: BigInt(row.petId), quantity: Number(row.quantity), status: row.status };
  }
}
