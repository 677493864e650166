import { describe, expect, it } from 'vitest';
import { nextStatus, PET_STATUSES } from './pet-status.js';

describe('nextStatus', () => {
  it('should mark any entry sold when its quantity becomes 0', () => {
    for (const status of PET_STATUSES) expect(nextStatus(status, 0)).toBe('sold');
  });

  it('should make a sold entry available again when stock arrives', () => {
    expect(nextStatus('sold', 1)).toBe('available');
    expect(nextStatus('sold', 2_147_483_647)).toBe('available');
  });

  it('should keep pending while the quantity stays positive', () => {
    expect(nextStatus('pending', 1)).toBe('pending');
    expect(nextStatus('pending', 500)).toBe('pending');
  });

  it('should keep available while the quantity stays positive', () => {
    expect(nextStatus('available', 3)).toBe('available');
  });
});
