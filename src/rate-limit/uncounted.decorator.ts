import { SetMetadata } from '@nestjs/common';

export const IS_UNCOUNTED = 'petstore:isUncounted';

// Not counted for a valid key, even over the limit; anyone else is counted per IP.
export const Uncounted = (): MethodDecorator => SetMetadata(IS_UNCOUNTED, true);
