import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, refusal } from '../../common/errors/api-error.js';
import { connectionOf, lingerThenClose } from './connections.js';

export type HeaderList = readonly (readonly [name: string, value: string])[];

export function watchBodyRead(socket: Socket, fail: (error: ApiError) => void): () => void {
  const connection = connectionOf(socket);
  if (connection.brokenBody) {
    fail(connection.brokenBody);
    return () => undefined;
  }
  connection.failBodyRead = fail;
  return () => {
    if (connection.failBodyRead === fail) connection.failBodyRead = undefined;
  };
}

export const REQUEST_TIMEOUT_MESSAGE = 'The request was not received in time; send it again';

function refusalFor(err: NodeJS.ErrnoException & { reason?: string }): ApiError | undefined {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return refusal('request_timeout', REQUEST_TIMEOUT_MESSAGE);
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return refusal('headers_too_large', `Request headers exceed ${maxHeaderSize} bytes`);
  }
  if (err.code?.startsWith('HPE_')) {
    // llhttp's reasons are fixed texts ("Invalid header token"), never the client's bytes.
    return refusal('validation_failed', `Malformed HTTP request: ${err.reason ?? 'parse error'}`);
  }
  return undefined;
}

export function errorBody(error: ApiError): string {
  return JSON.stringify({ code: error.code, message: error.message, status: error.status });
}

function rawAnswer(error: ApiError, headers: HeaderList): string {
  const body = errorBody(error);
  let head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  return (
    `${head}X-Request-Id: ${randomUUID()}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

function answerInFlight(res: ServerResponse, error: ApiError): void {
  const body = errorBody(error);
  if (!res.hasHeader('X-Request-Id')) res.setHeader('X-Request-Id', randomUUID());
  res.statusCode = error.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

// A broken body is refused by its reader, after the limiter, so its 400 carries its headers.
export function answerClientErrors(server: Server, headers: HeaderList): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const connection = connectionOf(socket);
    if (connection.lingering) return;
    const error = refusalFor(err);
    if (!error || !socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = connection.latest;
    if (inFlight && !inFlight.req.complete && !inFlight.writableFinished) {
      if (inFlight.headersSent) socket.destroy();
      else if (connection.failBodyRead) connection.failBodyRead(error);
      else if (error.code === 'request_timeout') answerInFlight(inFlight, error);
      else {
        connection.brokenBody = error;
        // Nothing more of this connection is parsed; the answer's close drains what follows.
        socket.pause();
      }
      return;
    }
    if (connection.open > 0) {
      // Bytes after a request still being answered: that answer is the connection's last.
      connection.closeAfterAnswer = true;
      socket.pause();
      return;
    }
    socket.write(rawAnswer(error, headers));
    lingerThenClose(socket, undefined, () => undefined);
  });
}
