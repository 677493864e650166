import { describe, expect, it } from 'vitest';
import { ImportError } from '../common/import/json-rows.js';
import { parseImportFile } from './inventory.importer.js';

function problems(text: string): string[] {
  try {
    parseImportFile(text);
  } catch (err) {
    if (err instanceof ImportError) return err.problems;
    throw err;
  }
  return [];
}

describe('inventory import file', () => {
  it('should list a duplicated petId with the other row errors, also when a row is bad', () => {
    expect(
      problems(`[
        {"petId": 1, "quantity": -1, "status": "available"},
        {"petId": 1, "quantity": 3, "status": "available"},
        {"petId": 2, "quantity": 1, "status": "lost"},
        {"petId": 2, "quantity": 1, "status": "gone"},
        {"petId": 9007199254740993, "quantity": 1, "status": "sold"},
        {"petId": "9007199254740993", "quantity": 1, "status": "sold"}
      ]`),
    ).toEqual([
      'row 1: quantity must be an integer from 0 to 2147483647',
      'row 2: petId 1 already appears in row 1',
      'row 3: status must be one of available, pending, sold',
      'row 4: status must be one of available, pending, sold',
      'row 4: petId 2 already appears in row 3',
      'row 6: petId 9007199254740993 already appears in row 5',
    ]);
  });

  it('should read a file without problems', () => {
    expect(parseImportFile('[{"petId": 1, "quantity": 0, "status": "available"}]')).toEqual([
      { petId: 1n, quantity: 0, status: 'sold', name: null },
    ]);
  });
});
