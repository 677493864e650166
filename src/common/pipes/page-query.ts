import { ValidateBy } from 'class-validator';

/** The most items a page of any list holds. */
export const MAX_PAGE = 1000;
const LIMIT = /^[1-9][0-9]{0,3}$/;

/** An `after` that `decode` reads back: it throws on text this API did not write. */
export const IsCursor = (decode: (text: string) => unknown): PropertyDecorator =>
  ValidateBy({
    name: 'isCursor',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          decode(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => 'after must be a cursor this API returned',
    },
  });

/** A `limit` as query text: an integer from 1 to MAX_PAGE. */
export const IsPageLimit = (): PropertyDecorator =>
  ValidateBy({
    name: 'isPageLimit',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && LIMIT.test(value) && Number(value) <= MAX_PAGE,
      defaultMessage: () => `limit must be an integer from 1 to ${MAX_PAGE}`,
    },
  });
