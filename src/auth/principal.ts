import type { Request } from 'express';
import type { Plan, Quota } from './plans.js';

/** The caller a valid API key identifies, as the rest of the request pipeline sees it. */
export interface Principal {
  keyId: number;
  keyPrefix: string;
  plan: Plan;
  quota: Quota;
}

/**
 * What the identify guard found in `Authorization`: nothing, something unusable, the header more
 * than once, a key (known from the key cache), or a well-formed key not yet looked up (its hash):
 * the limiter decides whether the client may spend a database lookup on it.
 */
export type Identity =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'duplicate' }
  | { kind: 'key'; principal: Principal }
  | { kind: 'unverified'; hash: string };

export type IdentifiedRequest = Request & { identity?: Identity; id?: string };
