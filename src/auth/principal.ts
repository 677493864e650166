import type { Request } from 'express';
import type { KeyScope } from './key-scope.js';
import type { Plan, Quota } from './plans.js';

/** The caller a valid API key identifies, as the rest of the request pipeline sees it. */
export interface Principal {
  keyId: number;
  keyPrefix: string;
  plan: Plan;
  quota: Quota;
  scope: KeyScope;
}

/**
 * What the identify guard found in `Authorization`: nothing, something unusable, the header more
 * than once, a key (known from the key cache), or a well-formed key not yet looked up (its hash):
 * the limiter decides whether the client may spend a database lookup on it. A key that was valid
 * at its last lookup is looked up again whatever its IP's state: a client sharing an address
 * with an abuser keeps working.
 */
export type Identity =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'duplicate' }
  | { kind: 'key'; principal: Principal }
  | {
      kind: 'unverified';
      hash: string;
      /** The key was valid when last looked up (its cache entry has expired since). */
      knownValid: boolean;
    };

export type IdentifiedRequest = Request & { identity?: Identity; id?: string };
