export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export function isKeyScope(value: string): value is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(value);
}

/** RFC 9110 §9.2.1 safe methods. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

// Derived from the method, so a route added later is closed to read keys unless it only reads.
export function requiredScope(method: string): KeyScope {
  return SAFE_METHODS.has(method.toUpperCase()) ? 'read' : 'write';
}

export function scopeAllows(scope: KeyScope, needed: KeyScope): boolean {
  return scope === 'write' || needed === 'read';
}
