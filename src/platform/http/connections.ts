import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../../common/errors/api-error.js';

export const DISCARD_LIMIT_BYTES = 64 * 1024;
export const DISCARD_LIMIT_MS = 1_000;

interface Connection {
  latest?: ServerResponse;
  open: number;
  lingering: boolean;
  closeAfterAnswer: boolean;
  brokenBody?: ApiError;
  failBodyRead?: (error: ApiError) => void;
}

const connections = new WeakMap<Socket, Connection>();

export function connectionOf(socket: Socket): Connection {
  let connection = connections.get(socket);
  if (!connection) {
    connection = { open: 0, lingering: false, closeAfterAnswer: false };
    connections.set(socket, connection);
  }
  return connection;
}

export const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function closeAfterAnswer(socket: Socket): void {
  connectionOf(socket).closeAfterAnswer = true;
}

export function admitRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const connection = connectionOf(req.socket);
  if (connection.lingering) return false;
  connection.latest = res;
  connection.open += 1;
  res.once('close', () => (connection.open -= 1));
  // RFC 9112 §6.1: HTTP/1.0 with Transfer-Encoding is faulty framing; close after it.
  if (
    (req.httpVersion === '1.0' && req.headers['transfer-encoding'] !== undefined) ||
    (hasBody(req) && !METHODS_WITH_BODY.has(req.method!))
  ) {
    res.setHeader('Connection', 'close');
  }
  return true;
}

// RFC 9112 §9.6: closing with unread input sends a reset that can erase the answer.
export function lingerThenClose(
  socket: Socket,
  req: IncomingMessage | undefined,
  done: () => void,
): void {
  connectionOf(socket).lingering = true;
  socket.end();
  let discarded = 0;
  const discard = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded < DISCARD_LIMIT_BYTES) return;
    socket.off('data', discard);
    req?.pause();
    socket.pause();
  };
  const close = (): void => {
    clearTimeout(timer);
    socket.off('data', discard);
    socket.off('end', close);
    socket.off('close', close);
    done();
    socket.destroy();
  };
  const timer = setTimeout(close, DISCARD_LIMIT_MS);
  timer.unref();
  socket.once('end', close);
  socket.once('close', close);
  socket.on('data', discard);
  // A request's body reaches the socket's reader only while the request itself flows.
  req?.resume();
  socket.resume();
}

const NO_BODY_STATUS = new Set([204, 304]);

function closesAfterAnswer(res: ServerResponse, socket: Socket): boolean {
  const req = res.req;
  return connectionOf(socket).closeAfterAnswer || (!req.readableEnded && hasBody(req));
}

const closing = new WeakSet<ServerResponse>();
type End = ServerResponse['end'];
type Write = ServerResponse['write'];

/** Node would otherwise read an unread body to its end on keep-alive, or close and risk a reset. */
export function closingEnd(nodeEnd: End, nodeWrite: Write): End {
  return function end(
    this: ServerResponse,
    chunk?: unknown,
    encoding?: unknown,
    cb?: unknown,
  ): ServerResponse {
    if (typeof chunk === 'function') [cb, chunk, encoding] = [chunk, undefined, undefined];
    else if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined];
    const callback = cb as (() => void) | undefined;
    const charset = encoding as BufferEncoding | undefined;
    if (closing.has(this)) {
      if (callback) this.once('finish', callback);
      return this;
    }
    const socket = this.socket;
    // A streamed answer of unknown length is complete only once `end` has written its last chunk.
    const chunkedStream = this.headersSent && !this.hasHeader('Content-Length');
    if (socket === null || chunkedStream || !closesAfterAnswer(this, socket)) {
      return nodeEnd.call(this, chunk, charset as BufferEncoding, callback);
    }
    closing.add(this);
    const withBody = this.req.method !== 'HEAD' && !NO_BODY_STATUS.has(this.statusCode);
    const bytes =
      chunk === undefined || chunk === null
        ? 0
        : Buffer.byteLength(chunk as string | Buffer, charset);
    if (!this.headersSent) {
      this.setHeader('Connection', 'close');
      // The answer must be complete before the half-close: its length, not chunked encoding's end.
      if (withBody && !this.hasHeader('Content-Length')) this.setHeader('Content-Length', bytes);
    }
    if (withBody && bytes > 0) nodeWrite.call(this, chunk, charset as BufferEncoding, undefined);
    else this.flushHeaders();
    lingerThenClose(socket, this.req, () => nodeEnd.call(this, undefined, 'utf8', callback));
    return this;
  } as End;
}
