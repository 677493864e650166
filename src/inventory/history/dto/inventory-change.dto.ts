import { ApiProperty } from '@nestjs/swagger';
import { PET_STATUSES, type PetStatus } from '../../pet-status.js';
import { CHANGE_REASONS } from '../../writes/stock-write.js';
import { CHANGE_SOURCES, type ChangeRow, type ChangeSource } from '../change-record.js';

/** One change of a pet's quantity or status, as the history records it. */
export class InventoryChange {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Position of the change in the feed; later changes have greater ids',
  })
  id!: bigint;

  @ApiProperty({ type: 'integer', format: 'int64', example: 42 })
  petId!: bigint;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'null when an import created the pet',
  })
  previousQuantity!: number | null;

  @ApiProperty({ type: 'integer', example: 12 })
  quantity!: number;

  @ApiProperty({
    type: 'string',
    enum: [...PET_STATUSES, null],
    nullable: true,
    description: 'null when an import created the pet',
  })
  previousStatus!: PetStatus | null;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus' })
  status!: PetStatus;

  @ApiProperty({ type: 'string', enum: [...CHANGE_REASONS, null], nullable: true })
  reason!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The document behind the change' })
  reference!: string | null;

  @ApiProperty({ enum: CHANGE_SOURCES, description: '`api`: a PATCH; `import`: the CLI import' })
  source!: ChangeSource;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'The API key that made the change',
  })
  keyId!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The `X-Request-Id` of the request that made the change',
  })
  requestId!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-24T06:00:00.000Z' })
  changedAt!: string;
}

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/** InventoryChanges as a JSON array, written directly: the ids are already exact decimal text. */
export function inventoryChangesJson(rows: readonly ChangeRow[]): string {
  let json = '[';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    json +=
      `${i === 0 ? '' : ','}{"id":${row.id},"petId":${row.petId},"previousQuantity":${row.previousQuantity ?? 'null'},` +
      `"quantity":${row.quantity},"previousStatus":${text(row.previousStatus)},"status":"${row.status}",` +
      `"reason":${text(row.reason)},"reference":${text(row.reference)},"source":"${row.source}",` +
      `"keyId":${row.keyId ?? 'null'},"requestId":${text(row.requestId)},"changedAt":"${new Date(row.changedAt).toISOString()}"}`;
  }
  return `${json}]`;
}
