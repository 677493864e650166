import { IsOptional } from 'class-validator';
import { IsCursor, IsPageLimit } from '../../../common/pipes/page-query.js';
import { decodeCursor } from '../change-cursor.js';

/** `after` and `limit` of the change feed, as query text. */
export class ChangesQuery {
  @IsOptional()
  @IsCursor(decodeCursor)
  after?: string;

  @IsOptional()
  @IsPageLimit()
  limit?: string;
}
