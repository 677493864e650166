import type { Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

// Read once: throttler asks six keys per request, and metadata cannot change once started.
export class RouteMetadata extends Reflector {
  private readonly routes = new WeakMap<object, WeakMap<object, Map<unknown, unknown>>>();

  override getAllAndOverride<T>(
    key: unknown,
    targets: (Type | ((...args: never[]) => unknown))[],
  ): T {
    if (targets.length !== 2) return super.getAllAndOverride<T>(key, targets);
    const [handler, controller] = targets;
    let handlers = this.routes.get(controller);
    if (handlers === undefined) this.routes.set(controller, (handlers = new WeakMap()));
    let values = handlers.get(handler);
    if (values === undefined) handlers.set(handler, (values = new Map()));
    if (!values.has(key)) values.set(key, super.getAllAndOverride(key, targets));
    return values.get(key) as T;
  }
}
