import { Injectable } from '@nestjs/common';
import { GoneError, NotFoundError } from '../../common/errors/api-error.js';
import { DEFAULT_PAGE, decodeCursor, encodeCursor } from './change-cursor.js';
import type { ChangesQuery } from './dto/changes-query.dto.js';
import type { ChangeRow } from './change-record.js';
import { InventoryHistoryRepository } from './inventory-history.repository.js';

export interface ChangesPage {
  changes: ChangeRow[];
  next: string;
  limit: number;
}

@Injectable()
export class InventoryHistoryService {
  constructor(private readonly history: InventoryHistoryRepository) {}

  async changes(query: ChangesQuery, petId?: bigint): Promise<ChangesPage> {
    const position = query.after === undefined ? undefined : decodeCursor(query.after);
    const limit = query.limit === undefined ? DEFAULT_PAGE : Number(query.limit);
    if (petId !== undefined && !(await this.history.petExists(petId)))
      throw new NotFoundError(`No pet with id ${petId}`);
    const page = await this.history.page(position, limit, petId);
    if (position !== undefined && position < page.through)
      throw new GoneError(
        'The cursor is older than the kept history (CHANGES_RETENTION_DAYS); list the inventory again and follow its X-Changes-Cursor',
      );
    const last = page.changes.at(-1);
    return {
      changes: page.changes,
      next: encodeCursor(last ? BigInt(last.id) : (position ?? page.through)),
      limit,
    };
  }
}
