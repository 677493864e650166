import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IdentifiedRequest } from '../../auth/principal.js';
import type { Caller } from './stock-write.js';

export const CallerOf = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const req = context.switchToHttp().getRequest<IdentifiedRequest>();
  return {
    keyId: req.principal?.keyId ?? null,
    requestId: req.id ?? null,
  };
});
