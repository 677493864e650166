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

/** What the identify guard found in `Authorization`: nothing, something unusable, or a key. */
export type Identity =
  { kind: 'missing' } | { kind: 'invalid' } | { kind: 'key'; principal: Principal };

export type IdentifiedRequest = Request & { identity?: Identity; id?: string };
