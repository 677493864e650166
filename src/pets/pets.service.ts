import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors/api-error.js';
import type { Pet } from './pet.dto.js';
import { PetsRepository } from './pets.repository.js';

@Injectable()
export class PetsService {
  constructor(private readonly repository: PetsRepository) {}

  async getPetById(id: bigint): Promise<Pet> {
    const row = await this.repository.findById(id);
    if (!row) throw new NotFoundError(`No pet with id ${id}`);
    return { id: BigInt(row.id), name: row.name, status: row.status };
  }
}
