import { isIPv4, isIPv6 } from 'node:net';

/**
 * An IP address as one 128-bit number: IPv6 as it is, IPv4 as its IPv4-mapped IPv6 form
 * (::ffff:a.b.c.d). One form for both families means a range written either way matches an
 * address written either way: 127.0.0.0/8 matches ::ffff:127.0.0.1, and ::ffff:169.254.169.254 is
 * the metadata address it names (docs/adr/0015-target-guard.md).
 */
export type IpValue = bigint;

const MAPPED_PREFIX = 0xffffn << 32n;
const ALL_ONES = (1n << 128n) - 1n;

/** Parses an IPv4 or IPv6 address (brackets and an IPv6 zone such as %eth0 allowed); null when it is neither. */
export function parseIp(text: string): IpValue | null {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const zone = t.indexOf('%');
  if (zone >= 0 && t.includes(':')) t = t.slice(0, zone);
  if (isIPv4(t)) return MAPPED_PREFIX | ipv4Value(t);
  if (isIPv6(t)) return ipv6Value(t);
  return null;
}

/** True when the address is an IPv4 address (or its mapped IPv6 form). */
export function isV4(ip: IpValue): boolean {
  return ip >> 32n === 0xffffn;
}

/** A range of addresses: `base` with the first `prefix` of its 128 bits significant. */
export interface IpRange {
  base: IpValue;
  /** 0–128, on the 128-bit form (an IPv4 /24 is 120). */
  prefix: number;
}

export function inRange(ip: IpValue, range: IpRange): boolean {
  const mask = range.prefix === 0 ? 0n : (ALL_ONES << BigInt(128 - range.prefix)) & ALL_ONES;
  return (ip & mask) === (range.base & mask);
}

/**
 * Parses "a.b.c.d/n" or "x::/n" into a range; a message saying what is wrong when it is not one;
 * null when the text has no "/" at all (it may be a single address or a host name).
 */
export function parseCidr(text: string): IpRange | string | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  const ip = parseIp(address);
  if (ip === null) return `"${address}" is not an IP address`;
  const max = isIPv4(address.trim()) ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) {
    return `the prefix length after "/" must be a whole number from 0 to ${max}`;
  }
  return { base: ip, prefix: Number(bits) + (max === 32 ? 96 : 0) };
}

function ipv4Value(t: string): bigint {
  return t.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(t: string): bigint {
  let text = t.toLowerCase();
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) is two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4Value(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined
      ? left
      : [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}
