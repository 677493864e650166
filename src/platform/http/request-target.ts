import type { IncomingMessage, ServerResponse } from 'node:http';

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

// The router would refuse `%FF` before the limiter: escaped, the pipe refuses it after counting.
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
