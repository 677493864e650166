import type { InventoryRow } from '../inventory-row.js';
import type { PetStatus } from '../pet-status.js';

export const CHANGE_SOURCES = ['api', 'import'] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

export interface ChangeRow {
  id: string;
  petId: string;
  previousQuantity: number | null;
  quantity: number;
  previousStatus: PetStatus | null;
  status: PetStatus;
  reason: string | null;
  reference: string | null;
  source: ChangeSource;
  keyId: number | null;
  requestId: string | null;
  changedAt: string | Date;
}

export const INSERT_CHANGE_SQL = `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status, status,
    reason, reference, source, key_id, request_id, changed_at)
  VALUES (:id, :petId, :previousQuantity, :quantity, :previousStatus, :status, :reason, :reference, :source, :keyId, :requestId, :changedAt)`;

export const CHANGE_COLUMNS = `CAST(id AS TEXT) AS id, CAST(pet_id AS TEXT) AS "petId", previous_quantity AS "previousQuantity",
  quantity, previous_status AS "previousStatus", status, reason, reference, source, key_id AS "keyId",
  request_id AS "requestId", changed_at AS "changedAt"`;

export function changeParams(
  id: bigint,
  previous: InventoryRow | undefined,
  row: InventoryRow,
  context: {
    reason: string | null;
    reference: string | null;
    source: ChangeSource;
    keyId: number | null;
    requestId: string | null;
  },
  changedAt: string,
): Record<string, unknown> {
  return {
    id: id.toString(),
    petId: row.petId,
    previousQuantity: previous?.quantity ?? null,
    quantity: row.quantity,
    previousStatus: previous?.status ?? null,
    status: row.status,
    reason: context.reason,
    reference: context.reference,
    source: context.source,
    keyId: context.keyId,
    requestId: context.requestId,
    changedAt,
  };
}

export function insertChangesSql(
  changes: readonly Record<string, unknown>[],
): [string, Record<string, unknown>] {
  const params: Record<string, unknown> = {};
  const values = changes.map((change, i) => {
    const names = Object.keys(change).map((key) => {
      params[`${key}${i}`] = change[key];
      return `:${key}${i}`;
    });
    return `(${names.join(', ')})`;
  });
  const head = INSERT_CHANGE_SQL.slice(0, INSERT_CHANGE_SQL.indexOf('VALUES'));
  return [`${head}VALUES ${values.join(', ')}`, params];
}
