import type { Request } from 'express';
import type { KeyScope } from './key-scope.js';
import type { Plan, Quota } from './plans.js';

export interface Principal {
  keyId: number;
  keyPrefix: string;
  plan: Plan;
  quota: Quota;
  scope: KeyScope;
}

// `unverified`: a well-formed key not yet looked up; the limiter decides whether the client may
// spend a lookup on it, except for a key valid at its last lookup, whatever its IP's state.
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

export type IdentifiedRequest = Request & { identity?: Identity; id?: string };
