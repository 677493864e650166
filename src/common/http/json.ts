import type { INestApplication } from '@nestjs/common';
import type { Express, Response } from 'express';
import { stringify } from 'lossless-json';

/** A response body that is already JSON text (for example a cached inventory listing). */
export class RawJson {
  constructor(readonly body: string | Buffer) {}
}

/**
 * Replaces Express's `res.json` for this app. JSON.stringify cannot print an int64 exactly
 * (JS numbers have 53 bits), so ids travel as `bigint` and are written by lossless-json, which
 * prints them as plain number text; `RawJson` bodies are sent as they are.
 */
export function installJsonWriter(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Express;
  express.response.json = function json(this: Response, body: unknown): Response {
    if (!this.get('Content-Type')) this.type('application/json; charset=utf-8');
    return this.send(body instanceof RawJson ? body.body : (stringify(body) ?? 'null'));
  };
}
