import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { looksLikeApiKey } from './log-redaction.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  // A key sent as a request id would be logged with every line: such an id is replaced.
  const id =
    typeof given === 'string' && CLIENT_REQUEST_ID.test(given) && !looksLikeApiKey(given)
      ? given
      : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
