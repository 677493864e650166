import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/ports.js';
import { command, RedisServers } from '../../bench/lib/redis-servers.js';

interface Squatter {
  close(): Promise<void>;
}

/** The harness the Sentinel and Cluster specs stand on: a taken port must not fail a run. */
describe('RedisServers (integration harness)', () => {
  let servers: RedisServers | undefined;
  let squatter: Squatter | undefined;

  afterEach(async () => {
    await servers?.stop();
    await squatter?.close();
    servers = squatter = undefined;
  });

  /** Holds `port` like another program would: it accepts connections and never answers. */
  function occupy(port: number): Promise<Squatter> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => sockets.add(socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () =>
        resolve({
          close: () => {
            for (const socket of sockets) socket.destroy();
            return new Promise((done) => server.close(() => done()));
          },
        }),
      );
    });
  }

  it('should start a node again on another port when the one it was given is taken', async () => {
    const taken = await freePort();
    squatter = await occupy(taken);
    const offered: number[] = [];
    servers = new RedisServers(async (busOffset) => {
      const port = offered.length === 0 ? taken : await freePort(busOffset);
      offered.push(port);
      return port;
    });

    const node = await servers.server();

    expect(offered).toHaveLength(2);
    expect(node.port).toBe(offered[1]);
    expect(await command(node.port, 'PING')).toBe('PONG');
    expect(servers.processes).toEqual([node]);
  });

  it('should start a Cluster node again when its bus port, 10000 above its own, is taken', async () => {
    const port = await freePort(10_000);
    squatter = await occupy(port + 10_000);
    const offered: number[] = [];
    servers = new RedisServers(async (busOffset) => {
      const next = offered.length === 0 ? port : await freePort(busOffset);
      offered.push(next);
      return next;
    });

    const node = await servers.server(
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'n.conf',
    );

    expect(node.port).toBe(offered[1]);
    expect(String(await command(node.port, 'INFO', 'cluster'))).toMatch(/cluster_enabled:1/);
  });

  it('should give up with what redis-server said once a node exits on every port', async () => {
    servers = new RedisServers();

    await expect(servers.server('--no-such-option', 'yes')).rejects.toThrow(
      /redis-server on \d+: exited: .*no-such-option/is,
    );
    expect(servers.processes).toEqual([]);
  });
});
