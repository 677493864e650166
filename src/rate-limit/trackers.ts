import type { Request } from 'express';
import { clientAddress, ipv6Prefix64 } from '../common/client-address.js';

// IPv6 per /64. clientAddress is always a valid IP, so a tracker never carries client text.

export function keyTracker(keyId: number): string {
  return `key:${keyId}`;
}

export function ipTracker(req: Request): string {
  const address = clientAddress(req);
  return address.includes(':') ? `ip:${ipv6Prefix64(address)}` : `ip:${address}`;
}

export function lookupTracker(req: Request): string {
  return `${ipTracker(req)}#lookups`;
}
