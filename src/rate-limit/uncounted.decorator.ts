import { SetMetadata } from '@nestjs/common';

export const IS_UNCOUNTED = 'petstore:isUncounted';

/**
 * Marks an authenticated route the limiter reports on but does not count for a valid key: it
 * reads the key's standing, sets the rate-limit headers and lets the request through, even over
 * the limit. Requests without a valid key are counted and limited per IP as everywhere.
 */
export const Uncounted = (): MethodDecorator => SetMetadata(IS_UNCOUNTED, true);
