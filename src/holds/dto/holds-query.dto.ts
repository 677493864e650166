import { IsOptional } from 'class-validator';
import { IsCursor, IsPageLimit } from '../../common/pipes/page-query.js';
import { decodeHoldCursor } from '../hold-cursor.js';

/** `after` and `limit` of a pet's active holds, as query text. */
export class HoldsQuery {
  @IsOptional()
  @IsCursor(decodeHoldCursor)
  after?: string;

  @IsOptional()
  @IsPageLimit()
  limit?: string;
}
