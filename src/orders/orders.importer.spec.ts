import { describe, expect, it } from 'vitest';
import { ImportError } from '../common/import/json-rows.js';
import { parseOrdersFile, parseShipDate } from './orders.importer.js';

function problems(text: string): string[] {
  try {
    parseOrdersFile(text);
  } catch (err) {
    if (err instanceof ImportError) return err.problems;
    throw err;
  }
  throw new Error('expected an ImportError');
}

describe('parseOrdersFile', () => {
  it('should read int64 ids exactly and default complete to whether the order is delivered', () => {
    expect(
      parseOrdersFile(`[
        {"id": 9223372036854775807, "petId": 9007199254740993, "quantity": 2, "status": "delivered"},
        {"id": "5", "petId": "1", "quantity": 1, "status": "placed", "shipDate": null, "complete": true}
      ]`),
    ).toEqual([
      {
        id: 9223372036854775807n,
        petId: 9007199254740993n,
        quantity: 2,
        status: 'delivered',
        shipDate: null,
        complete: true,
      },
      { id: 5n, petId: 1n, quantity: 1, status: 'placed', shipDate: null, complete: true },
    ]);
  });

  it('should list every problem of every row with its row number', () => {
    expect(
      problems(`[
        {"id": 0, "petId": 1.5, "quantity": 0, "status": "shipped", "extra": 1},
        {"id": 2, "petId": 1, "quantity": 2147483648, "status": "placed", "shipDate": "2026-02-30", "complete": "yes"},
        {"id": 3, "petId": 1, "quantity": 1, "status": "placed"},
        {"id": 3, "petId": 1, "quantity": 1, "status": "placed"},
        []
      ]`),
    ).toEqual([
      'row 1: unknown field "extra"',
      'row 1: id must be an integer from 1 to 9223372036854775807',
      'row 1: petId must be an integer from 1 to 9223372036854775807',
      'row 1: quantity must be an integer from 1 to 2147483647',
      'row 1: status must be one of placed, approved, delivered',
      'row 2: quantity must be an integer from 1 to 2147483647',
      'row 2: shipDate must be an ISO 8601 date or date-time with a zone, e.g. 2026-12-01T09:30:00Z',
      'row 2: complete must be true or false',
      'row 4: id 3 already appears in row 3',
      'row 5: must be an object',
    ]);
  });

  it('should refuse a file that is not a JSON array', () => {
    expect(problems('{"id": 1}')).toEqual([
      'the file must hold a JSON array of {id, petId, quantity, status, shipDate?, complete?}',
    ]);
    expect(problems('[{')[0]).toMatch(/^the file is not valid JSON/);
  });

  it('should cap the reported problems', () => {
    const rows = Array.from({ length: 30 }, () => '{"id": 0}').join(',');
    const reported = problems(`[${rows}]`);
    expect(reported).toHaveLength(21);
    expect(reported[20]).toMatch(/^… and \d+ more problems$/);
  });
});

describe('parseShipDate', () => {
  it('should accept dates (midnight UTC) and date-times with a zone', () => {
    expect(parseShipDate('2026-12-01')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseShipDate('2026-12-01T09:30:00Z')?.toISOString()).toBe('2026-12-01T09:30:00.000Z');
    expect(parseShipDate('2026-12-01T09:30:00.250+02:00')?.toISOString()).toBe(
      '2026-12-01T07:30:00.250Z',
    );
    expect(parseShipDate('2028-02-29T23:59:59Z')?.toISOString()).toBe('2028-02-29T23:59:59.000Z');
  });

  it('should refuse impossible dates and date-times without a zone', () => {
    for (const text of [
      '2026-02-30',
      '2027-02-29',
      '2026-13-01',
      '2026-12-01T24:00:00Z',
      '2026-12-01T09:30:00',
      '01/12/2026',
      '',
    ]) {
      expect(parseShipDate(text)).toBeUndefined();
    }
  });
});
