import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

export const IS_PUBLIC = 'petstore:isPublic';

export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

// By class and handler: a handler inherited by two controllers may be public in one only.
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

export const IS_ANONYMOUS = 'petstore:isAnonymous';

/** Ignores any key: counted per client IP on the free plan, as a keyless request. */
export const Anonymous = (): MethodDecorator & ClassDecorator => SetMetadata(IS_ANONYMOUS, true);

const anonymousRoutes = new WeakMap<object, boolean>();

export function isAnonymousRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const controller = context.getClass();
  let anonymous = anonymousRoutes.get(controller);
  if (anonymous === undefined) {
    anonymous = reflector.get<boolean>(IS_ANONYMOUS, controller) === true;
    anonymousRoutes.set(controller, anonymous);
  }
  return anonymous;
}
