import { SetMetadata } from '@nestjs/common';

export const IS_UNCOUNTED = 'petstore:isUncounted';

/**
 * Marks an authenticated route the limiter reports on but never counts: it reads the caller's
 * standing, sets the rate-limit headers and lets the request through, even over the limit.
 */
export const Uncounted = (): MethodDecorator => SetMetadata(IS_UNCOUNTED, true);
