import { describe, expect, it } from 'vitest';
import { isKeyScope, requiredScope, scopeAllows } from './key-scope.js';

describe('key scopes', () => {
  it('should need only read for methods that only read', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get'])
      expect(requiredScope(method)).toBe('read');
  });

  it('should need write for every other method, known or not', () => {
    for (const method of ['PATCH', 'POST', 'PUT', 'DELETE', 'patch', 'PURGE'])
      expect(requiredScope(method)).toBe('write');
  });

  it('should let a write key do everything and a read key only read', () => {
    expect(scopeAllows('write', 'write')).toBe(true);
    expect(scopeAllows('write', 'read')).toBe(true);
    expect(scopeAllows('read', 'read')).toBe(true);
    expect(scopeAllows('read', 'write')).toBe(false);
  });

  it('should know the two scopes and nothing else', () => {
    expect(isKeyScope('read')).toBe(true);
    expect(isKeyScope('write')).toBe(true);
    expect(isKeyScope('admin')).toBe(false);
    expect(isKeyScope('READ')).toBe(false);
  });
});
