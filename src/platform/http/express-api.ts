import type { Express, Response } from 'express';
import { closingEnd } from './connections.js';
import { writeJson } from './json.js';

/*
 * Express's documented "overriding the Express API"
 * (https://expressjs.com/en/guide/overriding-express-api.html): a method set on `app.response`
 * serves this app's responses in place of the one they inherit. The only place the service
 * changes a library's behaviour (eslint.config.js lets no other file).
 */

/** `res.end` closes a connection whose request body went unread (connections.ts). */
export function overrideResponseEnd(app: Express): void {
  app.response.end = closingEnd(app.response.end, app.response.write) as Response['end'];
}

/** `res.json` writes int64 ids exactly (json.ts). */
export function overrideResponseJson(app: Express): void {
  app.response.json = writeJson;
}
