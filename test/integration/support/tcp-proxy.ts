import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode =
  /** Forward every byte. */
  | 'up'
  /** A dead server: reset every connection, old and new. */
  | 'down'
  /** A mute one (frozen host, lost packets): keep the connections but forward nothing. */
  | 'mute';

/**
 * A TCP relay between the app and a real server, so tests can kill or freeze "the server"
 * without touching the one the machine runs for everybody.
 */
export class TcpProxy {
  private mode: ProxyMode = 'up';
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => proxy.accept(client, targetHost, targetPort));
    return proxy;
  }

  /** Rewrites host and port of a URL so that it goes through this proxy. */
  url(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  setMode(mode: ProxyMode): void {
    this.mode = mode;
    for (const pair of this.pairs) {
      if (mode === 'down') {
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      } else if (mode === 'mute') {
        pair.client.pause();
        pair.upstream.pause();
      } else {
        pair.client.resume();
        pair.upstream.resume();
      }
    }
  }

  async close(): Promise<void> {
    this.setMode('down');
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, host: string, port: number): void {
    if (this.mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(port, host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.mode === 'mute') {
      client.pause();
      upstream.pause();
    }
  }
}
