import type { Express, Response } from 'express';
import { closingEnd } from './connections.js';
import { writeJson } from './json.js';

// Express's documented "overriding the Express API"; eslint.config.js lets no other file do this.

export function overrideResponseEnd(app: Express): void {
  app.response.end = closingEnd(app.response.end, app.response.write) as Response['end'];
}

export function overrideResponseJson(app: Express): void {
  app.response.json = writeJson;
}
