import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../../common/errors/api-error.js';
import { ifMatchAllows, itemEtag, parseEntityTags, parseIfMatch } from './preconditions.js';

const row = { petId: '9223372036854775807', quantity: 3, status: 'available' as const };

// etagc = %x21 / %x23-7E / obs-text, commas and slashes often.
const etagChar = fc.oneof(
  fc.constantFrom(',', '/', 'W', '!'),
  fc.mapToConstant(
    { num: 1, build: () => '!' },
    { num: 0x7e - 0x23 + 1, build: (v) => String.fromCharCode(0x23 + v) },
    { num: 0x80, build: (v) => String.fromCharCode(0x80 + v) },
  ),
);
const entityTag = fc
  .tuple(fc.boolean(), fc.array(etagChar, { maxLength: 12 }))
  .map(([weak, chars]) => `${weak ? 'W/' : ''}"${chars.join('')}"`);
const ows = fc.constantFrom('', ' ', '\t', '  ');
/** A list separator: OWS "," OWS, with empty elements a recipient must accept (RFC 9110 §5.6.1.2). */
const separator = fc
  .tuple(ows, fc.integer({ min: 1, max: 3 }), ows)
  .map(([before, commas, after]) => `${before}${Array(commas).fill(',').join(' ')}${after}`);

function join(tags: string[], separators: string[], lead: string, trail: string): string {
  return lead + tags.map((tag, i) => (i === 0 ? tag : separators[i - 1] + tag)).join('') + trail;
}

const list = fc
  .tuple(
    fc.array(entityTag, { minLength: 1, maxLength: 6 }),
    fc.array(separator, { minLength: 6, maxLength: 6 }),
    fc.constantFrom('', ' ', ', '),
    fc.constantFrom('', ' ', ' ,'),
  )
  .map(([tags, separators, lead, trail]) => ({
    tags,
    field: join(tags, separators, lead, trail),
  }));

describe('item preconditions', () => {
  it('should tag equal states equally and different states differently', () => {
    expect(itemEtag(row)).toBe(itemEtag({ ...row }));
    expect(itemEtag(row)).not.toBe(itemEtag({ ...row, quantity: 4 }));
    expect(itemEtag(row)).not.toBe(itemEtag({ ...row, status: 'pending' }));
    expect(itemEtag(row)).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('should match a strong tag among several, and `*`', () => {
    const tag = itemEtag(row);
    expect(ifMatchAllows(parseIfMatch(`"x", ${tag}`), row)).toBe(true);
    expect(ifMatchAllows(parseIfMatch('*'), row)).toBe(true);
    expect(ifMatchAllows(parseIfMatch(' * '), row)).toBe(true);
    expect(ifMatchAllows(parseIfMatch(undefined), row)).toBe(true);
  });

  it('should never match a weak tag, even with the same opaque value', () => {
    expect(ifMatchAllows(parseIfMatch(`W/${itemEtag(row)}`), row)).toBe(false);
    expect(ifMatchAllows(parseIfMatch('"other"'), row)).toBe(false);
  });

  it('should keep a comma inside the quotes in the tag', () => {
    expect(parseIfMatch('"a,b"')).toEqual(['"a,b"']);
    expect(parseIfMatch('W/"a,b" ,"c",,')).toEqual(['W/"a,b"', '"c"']);
    expect(ifMatchAllows(parseIfMatch(`"a,${itemEtag(row).slice(1)}`), row)).toBe(false);
    expect(ifMatchAllows(parseIfMatch(`"x,y", ${itemEtag(row)}`), row)).toBe(true);
  });

  it('should join repeated header lines into one list', () => {
    expect(parseIfMatch(['"a,b"', `W/"c"`])).toEqual(['"a,b"', 'W/"c"']);
  });

  it('should refuse a malformed field with 400', () => {
    for (const field of [
      'abc',
      ', ,',
      '',
      '"a',
      '"a"b"',
      '"a" "b"',
      '*, "a"',
      '"a", *',
      'w/"a"',
      'W/ "a"',
      '"a b"',
      '"\u0001"',
      '"é\u0100"',
    ]) {
      expect(() => parseIfMatch(field), field).toThrow(ValidationFailedError);
    }
  });

  it('should read back every list of entity tags exactly, whatever the separators', () => {
    fc.assert(
      fc.property(list, ({ tags, field }) => {
        expect(parseEntityTags(field)).toEqual(tags);
        expect(parseIfMatch(field)).toEqual(tags);
      }),
    );
  });

  it('should allow a write exactly when the list holds the current strong tag', () => {
    const current = itemEtag(row);
    fc.assert(
      fc.property(list, fc.boolean(), fc.boolean(), fc.nat(), ({ tags }, include, weak, at) => {
        const field = [...tags];
        if (include) field.splice(at % (tags.length + 1), 0, `${weak ? 'W/' : ''}${current}`);
        expect(ifMatchAllows(parseIfMatch(field.join(', ')), row)).toBe(
          (include && !weak) || tags.includes(current),
        );
      }),
    );
  });

  it('should answer any field with tags or a 400, never anything else', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '"',
            ',',
            ' ',
            '\t',
            'W',
            'w',
            '/',
            '*',
            'a',
            '\u0001',
            '\u00e9',
            '\u0100',
          ),
          maxLength: 24,
        }),
        (field) => {
          try {
            const parsed = parseIfMatch(field);
            expect(parsed === '*' || (Array.isArray(parsed) && parsed.length > 0)).toBe(true);
          } catch (err) {
            expect(err).toBeInstanceOf(ValidationFailedError);
          }
        },
      ),
    );
  });

  it('should refuse a list with one tag cut open', () => {
    fc.assert(
      fc.property(list, fc.nat(), ({ tags }, pick) => {
        const broken = [...tags];
        const i = pick % tags.length;
        broken[i] = broken[i].slice(0, -1);
        expect(() => parseIfMatch(broken.join(', '))).toThrow(ValidationFailedError);
      }),
    );
  });
});
