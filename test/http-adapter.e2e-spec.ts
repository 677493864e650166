import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiExpressAdapter } from '../src/platform/http/index.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

interface Exchange {
  /** Everything the server sent before it closed its side, or before the client stopped waiting. */
  received: string;
  /** The server closed its side after answering. */
  closed: boolean;
}

/**
 * Sends `bytes` and reads until the server closes its side; or, with `untilAnswers`, until that
 * many answers have arrived (the server keeps the connection open).
 */
function exchange(port: number, bytes: string, untilAnswers?: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const answers = received.match(/HTTP\/1\.1 \d{3} [^\r]*\r\n[\s\S]*?\r\n\r\n\{[^}]*\}/g);
      if (untilAnswers !== undefined && (answers?.length ?? 0) >= untilAnswers) {
        socket.destroy();
        resolve({ received, closed: false });
      }
    });
    socket.on('end', () => {
      socket.destroy();
      resolve({ received, closed: true });
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const header = (received: string, name: string) =>
  new RegExp(`\r\n${name}: ([^\r]*)\r\n`, 'i').exec(received)?.[1];

describe('ApiExpressAdapter (e2e)', () => {
  let t: TestApp;
  let port: number;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
    await t.seed([{ petId: 1n, name: 'Rex', quantity: 3, status: 'available' }]);
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(async () => {
    await t.close();
  });

  const patch = (version: string, framing: string, body: string) =>
    `PATCH /v1/inventory/1 HTTP/${version}\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: application/json\r\nConnection: keep-alive\r\n${framing}\r\n${body}`;

  it('should close the connection after an HTTP/1.0 request with Transfer-Encoding (RFC 9112 §6.1)', async () => {
    const reply = await exchange(
      port,
      patch('1.0', 'Transfer-Encoding: chunked\r\n', 'f\r\n{"quantity": 4}\r\n0\r\n\r\n'),
    );
    expect(reply.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(header(reply.received, 'Connection')).toBe('close');
    expect(reply.closed).toBe(true);
  });

  it('should keep an HTTP/1.0 connection the client asks to keep when the body has a length', async () => {
    const reply = await exchange(
      port,
      patch('1.0', 'Content-Length: 15\r\n', '{"quantity": 5}'),
      1,
    );
    expect(reply.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(header(reply.received, 'Connection')).toBe('keep-alive');
  });

  it('should keep a connection whose request body was read', async () => {
    const one = patch('1.1', 'Content-Length: 15\r\n', '{"quantity": 6}');
    const reply = await exchange(port, one + one, 2);
    expect(reply.received.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(header(reply.received, 'Connection')).toBe('keep-alive');
  });

  it('should refuse the server options it does not serve', () => {
    expect(() =>
      new ApiExpressAdapter(t.config.http.timeouts).initHttpServer({ httpsOptions: {} }),
    ).toThrow(/plain HTTP/);
    expect(() =>
      new ApiExpressAdapter(t.config.http.timeouts).initHttpServer({ forceCloseConnections: true }),
    ).toThrow(/plain HTTP/);
  });
});
