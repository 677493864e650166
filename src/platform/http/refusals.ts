import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, refusal } from '../../common/errors/api-error.js';

export const DISCARD_LIMIT_BYTES = 1024 * 1024;
export const DISCARD_LIMIT_MS = 5_000;

export type HeaderList = readonly (readonly [name: string, value: string])[];

const closing = new WeakSet<Socket>();
const bodyReads = new WeakMap<Socket, (error: ApiError) => void>();

/**
 * Closes without losing the last answer (RFC 9112 §9.6): closing with unread input makes the kernel
 * send a reset that can erase it, so the server half-closes and drops what follows, within bounds.
 */
export function closeAfterDiscarding(socket: Socket): void {
  if (closing.has(socket) || socket.destroyed) return;
  closing.add(socket);
  let budget = DISCARD_LIMIT_BYTES;
  const discard = (chunk: Buffer): void => {
    budget -= chunk.length;
    if (budget < 0) socket.destroy();
  };
  // Adding a listener makes Node feed its HTTP parser from JS; removing the parser's listener
  // then keeps whatever follows from being read as another request.
  socket.on('data', discard);
  for (const listener of socket.listeners('data')) {
    if (listener !== discard) socket.off('data', listener as (...args: unknown[]) => void);
  }
  const timer = setTimeout(() => socket.destroy(), DISCARD_LIMIT_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  });
  socket.resume();
  socket.end();
}

// `Connection: close`; Node would otherwise close at once and risk the reset.
export function closeAfterAnswer(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null;
  if (socket) socket.destroySoon = () => closeAfterDiscarding(socket);
}

export function watchBodyRead(socket: Socket, fail: (error: ApiError) => void): () => void {
  bodyReads.set(socket, fail);
  return () => {
    if (bodyReads.get(socket) === fail) bodyReads.delete(socket);
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
  closeAfterAnswer(res);
  res.end(body);
}

// Node's parser refusals get the Error body instead of a bare status line; a request Express holds
// is answered through its response, keeping the headers set so far (request id, rate limit).
export function answerClientErrors(server: Server, headers: HeaderList): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const error = refusalFor(err);
    if (closing.has(socket)) {
      if (!error) socket.destroy();
      return;
    }
    if (!error || !socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight) {
      if (inFlight.headersSent) {
        socket.destroy();
        return;
      }
      const failRead = bodyReads.get(socket);
      if (failRead) failRead(error);
      else answerInFlight(inFlight, error);
      return;
    }
    socket.write(rawAnswer(error, headers));
    closeAfterDiscarding(socket);
  });
}
