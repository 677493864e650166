import { isIP } from 'node:net';
import type { Request } from 'express';

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export function normalizeAddress(address: string | undefined): string | undefined {
  if (address === undefined || address.length > 45) return undefined;
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const mapped = MAPPED_V4.exec(address);
  return mapped ? mapped[1] : address.toLowerCase();
}

export function clientAddress(req: Request): string {
  return normalizeAddress(req.ip) ?? normalizeAddress(req.socket?.remoteAddress) ?? 'unknown';
}

// A /64, which one subscriber usually holds whole.
export function ipv6Prefix64(address: string): string {
  const [head, tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
