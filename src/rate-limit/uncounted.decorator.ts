import { SetMetadata } from '@nestjs/common';

export const IS_UNCOUNTED = 'petstore:isUncounted';

export const Uncounted = (): MethodDecorator => SetMetadata(IS_UNCOUNTED, true);
