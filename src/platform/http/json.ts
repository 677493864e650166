import type { Response } from 'express';
import { stringify } from 'lossless-json';

export class RawJson {
  constructor(readonly body: string | Buffer) {}
}

/** Revalidated with If-None-Match (RFC 9110 §13.1.2). */
const REVALIDATED_METHODS = new Set(['GET', 'HEAD']);

// Only GET and HEAD get an ETag: res.send would hash any other answer into an unusable one.
export function writeJson(this: Response, body: unknown): Response {
  if (!this.get('Content-Type')) this.type('application/json; charset=utf-8');
  const text = body instanceof RawJson ? body.body : (stringify(body) ?? 'null');
  // Neither an error nor an answer the client may not store is a representation to revalidate.
  if (
    REVALIDATED_METHODS.has(this.req.method) &&
    this.statusCode < 300 &&
    this.get('Cache-Control') !== 'no-store'
  )
    return this.send(text);
  this.setHeader(
    'Content-Length',
    typeof text === 'string' ? Buffer.byteLength(text) : text.length,
  );
  this.end(text);
  return this;
}
