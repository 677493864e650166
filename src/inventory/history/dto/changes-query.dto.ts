import { IsOptional, ValidateBy } from 'class-validator';
import { decodeCursor, MAX_PAGE } from '../change-cursor.js';

const LIMIT = /^[1-9][0-9]{0,3}$/;

/** `after` and `limit` of the change feed, as query text. */
export class ChangesQuery {
  @IsOptional()
  @ValidateBy({
    name: 'isCursor',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          decodeCursor(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => 'after must be a cursor this API returned',
    },
  })
  after?: string;

  @IsOptional()
  @ValidateBy({
    name: 'isPageLimit',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && LIMIT.test(value) && Number(value) <= MAX_PAGE,
      defaultMessage: () => `limit must be an integer from 1 to ${MAX_PAGE}`,
    },
  })
  limit?: string;
}
