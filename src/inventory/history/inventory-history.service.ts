import { Injectable } from '@nestjs/common';
import { GoneError, NotFoundError } from '../../common/errors/api-error.js';
import { decodeCursor, encodeCursor, parseLimit } from './change-cursor.js';
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

  async changes(after: unknown, limitText: unknown, petId?: bigint): Promise<ChangesPage> {
    const position =
      after === undefined ? undefined : decodeCursor(typeof after === 'string' ? after : '');
    const limit = parseLimit(
      typeof limitText === 'string' || limitText === undefined ? limitText : '',
    );
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
