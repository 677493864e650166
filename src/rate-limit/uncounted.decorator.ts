import { SetMetadata } from '@nestjs/common';

export const IS_UNCOUNTED = 'petstore:isUncounted';

// Reported on but not counted for a valid key, even over the limit; anyone else is counted per IP
// as everywhere.
export const Uncounted = (): MethodDecorator => SetMetadata(IS_UNCOUNTED, true);
