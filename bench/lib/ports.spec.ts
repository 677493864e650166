import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.js';

// Where the kernel starts handing out ports; 49152 (IANA's dynamic range) where /proc is absent.
const ephemeralLow = existsSync('/proc/sys/net/ipv4/ip_local_port_range')
  ? Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
  : 49_152;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('freePort', () => {
  it('should choose a free port the kernel never hands to listen(0) or an outgoing connection', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeLessThan(ephemeralLow);
      expect(await bindable(port)).toBe(true);
    }
  });

  it('should choose a port whose port + offset is free and below that range as well', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort(10_000);
      expect(port + 10_000).toBeLessThan(ephemeralLow);
      expect([await bindable(port), await bindable(port + 10_000)]).toEqual([true, true]);
    }
  });
});
