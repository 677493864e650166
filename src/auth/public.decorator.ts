import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

export const IS_PUBLIC = 'petstore:isPublic';

/** Marks a route that needs no API key and is neither counted nor limited (docs, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

// Looked up once per route, by class and handler as the metadata is: a handler inherited by two
// controllers may be public in one only.
const publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const controller = context.getClass();
  const handler = context.getHandler();
  let handlers = publicRoutes.get(controller);
  if (handlers === undefined) publicRoutes.set(controller, (handlers = new WeakMap()));
  let isPublic = handlers.get(handler);
  if (isPublic === undefined) {
    isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
    handlers.set(handler, isPublic);
  }
  return isPublic;
}
