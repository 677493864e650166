import { connect, createServer, type Server, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';

/** Which connections are cut, by their number (0, 1, 2, … in order of arrival). */
export type CutPolicy = (connection: number) => boolean;

/** Every `n`th connection, so exactly 1/n of them: deterministic, unlike a random draw. */
export const everyNth =
  (n: number): CutPolicy =>
  (connection) =>
    connection % n === n - 1;

/**
 * A TCP relay in front of an HTTP server that loses answers: on a connection the policy picks, it
 * forwards the request, lets the server handle it, and resets the connection when the answer's
 * first bytes arrive, so the client sees a network error for a request that did take effect.
 */
export class FaultProxy {
  private connections = 0;
  private cutCount = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }, cut: CutPolicy): Promise<FaultProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new FaultProxy(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => proxy.relay(client, target, cut(proxy.connections++)));
    return proxy;
  }

  /** Connections accepted, and those cut before their answer. */
  get stats(): { connections: number; cut: number } {
    return { connections: this.connections, cut: this.cutCount };
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(client: Socket, target: { host: string; port: number }, doomed: boolean): void {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    if (!doomed) {
      upstream.pipe(client);
      return;
    }
    upstream.once('data', () => {
      this.cutCount++;
      client.resetAndDestroy();
      upstream.destroy();
    });
  }
}

/**
 * A `fetch` that opens a new connection for every request (no keep-alive), so a proxy's cut
 * connection loses exactly one answer.
 */
export const fetchOnNewConnections: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req = httpRequest(
      String(input),
      { method: init.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') answer.set(name, value);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: answer }));
        });
      },
    );
    req.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
    req.end(typeof init.body === 'string' ? init.body : undefined);
  });
