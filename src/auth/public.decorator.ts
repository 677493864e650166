import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'petstore:isPublic';

/** Marks a route that needs no API key and is neither counted nor limited (docs, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
