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

export interface Caller {
  principal: Principal | undefined;
  refusal: ApiError | undefined;
}

export type IdentifiedRequest = Request & { principal?: Principal; id?: string };
