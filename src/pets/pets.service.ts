import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors/api-error.js';
import { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import type { Pet } from './pet.dto.js';

/** The deprecated pet operation, read from the `pets` table that the inventory module owns. */
@Injectable()
export class PetsService {
  constructor(private readonly repository: InventoryRepository) {}

  async getPetById(id: bigint): Promise<Pet> {
    const row = await this.repository.findPet(id);
    if (!row) throw new NotFoundError(`No pet with id ${id}`);
    return { id: BigInt(row.id), name: row.name, status: row.status };
  }
}
