import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PetStatus } from '../inventory/pet-status.js';

export interface PetRow {
  id: string;
  name: string | null;
  status: PetStatus;
}

@Injectable()
export class PetsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The id is read as text: better-sqlite3 would round an INTEGER above 2^53 to a JS number. */
  async findById(id: bigint): Promise<PetRow | undefined> {
    const [sql, params] = this.dataSource.driver.escapeQueryWithParameters(
      `SELECT CAST(id AS TEXT) AS id, name, status FROM pets WHERE id = :id`,
      { id: id.toString() },
    );
    const rows = (await this.dataSource.query(sql, params)) as PetRow[];
    return rows[0];
  }
}
