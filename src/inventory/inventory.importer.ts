import { Injectable } from '@nestjs/common';
import {
  countField,
  type ImportResult,
  int64Field,
  parseJsonRows,
  rowField,
  upsertInBatches,
} from '../common/import/json-rows.js';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InventoryUpdate, MAX_QUANTITY } from './dto/inventory-update.dto.js';
import { type ImportRow, SETTABLE_FIELDS } from './inventory-row.js';
import { InventoryRepository } from './writes/inventory.repository.js';
import { nextStatus, PET_STATUSES, type PetStatus } from './pet-status.js';

const FIELDS = new Set(['petId', 'quantity', 'status', 'name', ...SETTABLE_FIELDS]);

/** The row's settable fields, checked by InventoryUpdate's own rules, as a PATCH would be. */
function settableProblems(record: Record<string, unknown>): string[] {
  const present = SETTABLE_FIELDS.filter((field) => record[field] !== undefined);
  if (present.length === 0) return [];
  const fields = Object.fromEntries(present.map((field) => [field, record[field]]));
  const update = plainToInstance(InventoryUpdate, { quantity: 0, ...fields });
  return validateSync(update)
    .filter((error) => present.includes(error.property))
    .flatMap((error) => Object.values(error.constraints ?? {}));
}

export function validateImportRow(value: unknown): ImportRow | string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['must be an object'];
  const record = value as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((key) => !FIELDS.has(key))
    .map((key) => `unknown field "${key}"`);

  const petId = int64Field(record.petId);
  if (petId === undefined) problems.push('petId must be an integer from 1 to 9223372036854775807');

  const quantity = countField(record.quantity);
  if (!(quantity >= 0 && quantity <= MAX_QUANTITY))
    problems.push(`quantity must be an integer from 0 to ${MAX_QUANTITY}`);

  const status = record.status as PetStatus;
  if (!PET_STATUSES.includes(status))
    problems.push(`status must be one of ${PET_STATUSES.join(', ')}`);

  const name = record.name ?? null;
  if (name !== null && (typeof name !== 'string' || name.length > 200))
    problems.push('name must be a string of at most 200 characters');

  problems.push(...settableProblems(record));

  if (problems.length > 0) return problems;
  // A quantity of 0 is stored as sold, as the status rule would make it.
  return {
    ...Object.fromEntries(SETTABLE_FIELDS.map((field) => [field, record[field]])),
    petId: petId!,
    quantity,
    status: quantity === 0 ? nextStatus(status, 0) : status,
    name: name as string | null,
  };
}

export function parseImportFile(text: string): ImportRow[] {
  return parseJsonRows(text, {
    shape: '{petId, quantity, status, name?}',
    validate: validateImportRow,
    key: (row) => ({ field: 'petId', value: int64Field(rowField(row, 'petId')) }),
  });
}

@Injectable()
export class InventoryImporter {
  constructor(private readonly repository: InventoryRepository) {}

  /** All rows are stored, or none. */
  async import(
    rows: ImportRow[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<ImportResult> {
    return this.repository.transaction((manager) =>
      upsertInBatches(rows, (batch) => this.repository.upsertBatch(manager, batch), onProgress),
    );
  }
}
