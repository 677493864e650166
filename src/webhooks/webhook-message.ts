import type { ChangeRow } from '../inventory/history/change-record.js';
import { inventoryChangesJson } from '../inventory/history/dto/inventory-change.dto.js';

export const EVENT_TYPE = 'inventory.changed';

export function messageBody(change: ChangeRow): string {
  const data = inventoryChangesJson([change]).slice(1, -1);
  const timestamp = new Date(change.changedAt).toISOString();
  return `{"type":"${EVENT_TYPE}","timestamp":"${timestamp}","data":${data}}`;
}
