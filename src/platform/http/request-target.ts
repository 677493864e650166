import type { IncomingMessage, ServerResponse } from 'node:http';

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Express's router refuses a path whose percent-encoding is not UTF-8 (`/v1/pets/%FF`) while it
 * matches routes, before any guard, so that answer would skip the rate limiter. Such a path has
 * its `%` escaped (`%FF` -> `%25FF`, which matches the same routes): the route's parameter is
 * then the text `%FF`, which its pipe refuses with 400 once the limiter has counted the request,
 * and a path that names no route is a 404 like any other.
 */
export function escapeUndecodablePath(
  req: IncomingMessage,
  _res: ServerResponse,
  next: () => void,
): void {
  const url = req.url!;
  if (url.includes('%')) {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!decodes(path)) {
      req.url = path.replaceAll('%', '%25') + (query === -1 ? '' : url.slice(query));
    }
  }
  next();
}
