import { Injectable } from '@nestjs/common';
import {
  countField,
  IMPORT_BATCH_ROWS,
  type ImportResult,
  int64Field,
  parseJsonRows,
  rowField,
  throwIfAny,
  upsertInBatches,
} from '../common/import/json-rows.js';
import { MAX_QUANTITY } from '../inventory/dto/inventory-update.dto.js';
import { ORDER_STATUSES, type OrderStatus } from './order-status.js';
import { OrdersRepository, type OrderImportRow } from './orders.repository.js';

const FIELDS = new Set(['id', 'petId', 'quantity', 'status', 'shipDate', 'complete']);
const INT64_RANGE = 'an integer from 1 to 9223372036854775807';
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

/** An ISO 8601 date (midnight UTC) or date-time with a zone; calendar-checked, unlike Date.parse. */
export function parseShipDate(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day))
    return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const date = new Date(match[4] === undefined ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function validateOrderRow(value: unknown): OrderImportRow | string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['must be an object'];
  const record = value as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((key) => !FIELDS.has(key))
    .map((key) => `unknown field "${key}"`);

  const id = int64Field(record.id);
  if (id === undefined) problems.push(`id must be ${INT64_RANGE}`);
  const petId = int64Field(record.petId);
  if (petId === undefined) problems.push(`petId must be ${INT64_RANGE}`);

  const quantity = countField(record.quantity);
  if (!(quantity >= 1 && quantity <= MAX_QUANTITY))
    problems.push(`quantity must be an integer from 1 to ${MAX_QUANTITY}`);

  const status = record.status as OrderStatus;
  if (!ORDER_STATUSES.includes(status))
    problems.push(`status must be one of ${ORDER_STATUSES.join(', ')}`);

  let shipDate: Date | null = null;
  if (record.shipDate !== undefined && record.shipDate !== null) {
    const parsed = typeof record.shipDate === 'string' ? parseShipDate(record.shipDate) : undefined;
    if (parsed === undefined)
      problems.push(
        'shipDate must be an ISO 8601 date or date-time with a zone, e.g. 2026-12-01T09:30:00Z',
      );
    shipDate = parsed ?? null;
  }

  if (record.complete !== undefined && typeof record.complete !== 'boolean')
    problems.push('complete must be true or false');

  if (problems.length > 0) return problems;
  return {
    id: id!,
    petId: petId!,
    quantity,
    status,
    shipDate,
    // Unless the file says otherwise, an order is complete once delivered.
    complete: (record.complete as boolean | undefined) ?? status === 'delivered',
  };
}

export function parseOrdersFile(text: string): OrderImportRow[] {
  return parseJsonRows(text, {
    shape: '{id, petId, quantity, status, shipDate?, complete?}',
    validate: validateOrderRow,
    key: (row) => ({ field: 'id', value: int64Field(rowField(row, 'id')) }),
  });
}

@Injectable()
export class OrdersImporter {
  constructor(private readonly repository: OrdersRepository) {}

  // All rows are stored, or none; rows naming a pet outside the catalogue are listed in the error.
  async import(
    rows: OrderImportRow[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<ImportResult> {
    return this.repository.transaction(async (manager) => {
      const problems: string[] = [];
      for (let start = 0; start < rows.length; start += IMPORT_BATCH_ROWS) {
        const batch = rows.slice(start, start + IMPORT_BATCH_ROWS);
        const known = await this.repository.existingPetIds(manager, [
          ...new Set(batch.map((row) => row.petId)),
        ]);
        batch.forEach((row, i) => {
          if (!known.has(row.petId))
            problems.push(`row ${start + i + 1}: petId ${row.petId} is not in the catalogue`);
        });
      }
      throwIfAny(problems);
      return upsertInBatches(
        rows,
        (batch) => this.repository.upsertBatch(manager, batch),
        onProgress,
      );
    });
  }
}
