import type { INestApplication } from '@nestjs/common';
import type { Express, Response } from 'express';
import { stringify } from 'lossless-json';

/** A response body that is already JSON text (for example a cached inventory listing). */
export class RawJson {
  constructor(readonly body: string | Buffer) {}
}

/** Methods whose answers a client can revalidate with If-None-Match (RFC 9110 §13.1.2). */
const REVALIDATED_METHODS = new Set(['GET', 'HEAD']);

/**
 * Replaces Express's `res.json` for this app. JSON.stringify cannot print an int64 exactly
 * (JS numbers have 53 bits), so ids travel as `bigint` and are written by lossless-json, which
 * prints them as plain number text; `RawJson` bodies are sent as they are.
 * Answers to GET and HEAD go through `res.send`, which gives them Express's weak ETag and
 * answers a matching If-None-Match with 304. Any other answer (a PATCH, an error to a POST)
 * is sent as it is: res.send would hash it into an ETag that no conditional request can use.
 */
export function installJsonWriter(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Express;
  express.response.json = function json(this: Response, body: unknown): Response {
    if (!this.get('Content-Type')) this.type('application/json; charset=utf-8');
    const text = body instanceof RawJson ? body.body : (stringify(body) ?? 'null');
    // An error is no representation to revalidate, nor is an answer the client may not store:
    // neither gets an ETag.
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
  };
}
