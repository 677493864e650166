import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runSql } from '../database/sql.js';
import type { PetStatus } from '../inventory/pet-status.js';

export interface PetRow {
  id: string;
  name: string | null;
  status: PetStatus;
}

@Injectable()
export class PetsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: bigint): Promise<PetRow | undefined> {
    const [row] = await runSql<PetRow>(
      this.dataSource,
      `SELECT CAST(id AS TEXT) AS id, name, status FROM pets WHERE id = :id`,
      { id: id.toString() },
    );
    return row;
  }
}
