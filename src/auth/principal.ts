import type { Request } from 'express';
import type { ApiError } from '../common/errors/api-error.js';
import type { KeyScope } from './key-scope.js';
import type { Plan, Quota } from './plans.js';

export interface Principal {
  keyId: number;
  keyPrefix: string;
  plan: Plan;
  quota: Quota;
  scope: KeyScope;
}

// `unverified`: a well-formed key not yet looked up; the client's lookup budget decides whether it
// may spend a lookup on it, except for a key valid at its last lookup, whatever its IP's state.
export type Identity =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'duplicate' }
  | { kind: 'key'; principal: Principal }
  | {
      kind: 'unverified';
      hash: string;
      knownValid: boolean;
    };

/** Who is calling, decided once per request by ApiKeyGuard. */
export interface Caller {
  /** A valid key's; undefined for a request without one. */
  principal: Principal | undefined;
  /** What the route answers this caller instead (401, 403, or 400 for a repeated Authorization). */
  refusal: ApiError | undefined;
}

export type IdentifiedRequest = Request & { principal?: Principal; id?: string };
