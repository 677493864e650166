import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

const HOST = '127.0.0.1';
const LOWEST = 10_000;

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, HOST, () => resolve(server));
  });
}

/** The first port the kernel hands out for listen(0) and outgoing connections. */
const EPHEMERAL_LOW = ((): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
  } catch {
    return 49_152; // IANA's dynamic range, which macOS uses
  }
})();

/**
 * A port nobody listens on right now, for a process started a moment later, and with `offset` one
 * whose port + `offset` is free too (a Redis Cluster node binds its bus port 10000 above its own).
 *
 * It is chosen below the kernel's ephemeral range. Every listen(0) and every outgoing connection
 * takes a port from that range (supertest listens on one for each request, thousands in a run), so
 * a port chosen there can be taken before the process it was meant for binds it.
 */
export async function freePort(offset = 0): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await candidate(offset);
    const held = await Promise.all(
      [...new Set([port, port + offset])].map((p) => listen(p).catch(() => null)),
    );
    await Promise.all(held.map((server) => server && new Promise((done) => server.close(done))));
    if (held.every((server) => server !== null)) return port;
  }
  throw new Error('no free port in 100 tries');
}

async function candidate(offset: number): Promise<number> {
  const highest = EPHEMERAL_LOW - 1 - offset;
  if (highest > LOWEST) return LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
  // An ephemeral range that starts this low leaves no room below it: let the kernel choose.
  const server = await listen(0);
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
