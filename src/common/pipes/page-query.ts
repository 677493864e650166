import { ValidateBy } from 'class-validator';

/** The most items a page of any list holds. */
export const MAX_PAGE = 1000;
const LIMIT = /^[1-9][0-9]{0,3}$/;

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,80}$/;

/** A list position as clients see it: its ASCII text in base64url, opaque. */
export const toCursor = (plain: string): string => Buffer.from(plain).toString('base64url');

/** The text of a cursor `toCursor` wrote, or '' for text it could not have written. */
export function fromCursor(text: string): string {
  if (!CURSOR_TEXT.test(text)) return '';
  const plain = Buffer.from(text, 'base64url').toString('latin1');
  return toCursor(plain) === text ? plain : '';
}

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
