import { networkInterfaces } from 'node:os';
import { parseCidr, parseIp, inRange, type IpRange, type IpValue } from './ip';

const range = (text: string): IpRange => {
  const parsed = parseCidr(text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`);
  if (parsed === null || typeof parsed === 'string') throw new Error(`bad built-in range ${text}`);
  return parsed;
};

/**
 * Link-local ranges and the cloud metadata services' addresses: never a test target, whatever the
 * lists say (docs/design.md §11). 169.254.169.254 (AWS, GCP, Azure, Oracle…) is inside 169.254.0.0/16.
 */
const NEVER_RANGES: readonly IpRange[] = [
  '169.254.0.0/16', // IPv4 link-local
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254', // AWS metadata over IPv6
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud metadata
].map(range);

/** Host names of metadata services, refused before any lookup (they may resolve through a local resolver). */
const NEVER_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

export function isMetadataName(host: string): boolean {
  return NEVER_NAMES.has(host);
}

export function isNeverAddress(ip: IpValue): boolean {
  return NEVER_RANGES.some((r) => inRange(ip, r));
}

/** Addresses that reach this machine whatever its interfaces: any-address, loopback. */
const LOCAL_RANGES: readonly IpRange[] = ['0.0.0.0', '::', '127.0.0.0/8', '::1'].map(range);
const INTERFACES_TTL_MS = 10_000;
let interfaces: { at: number; addresses: IpValue[] } | undefined;

/** This machine's interface addresses, read again at most every 10 s (interfaces come and go). */
function interfaceAddresses(): IpValue[] {
  const now = Date.now();
  if (interfaces === undefined || now - interfaces.at > INTERFACES_TTL_MS) {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((info) => parseIp(info.address))
      .filter((ip): ip is IpValue => ip !== null);
    interfaces = { at: now, addresses };
  }
  return interfaces.addresses;
}

/** True when a connection to this address stays on this machine. */
export function isOwnAddress(ip: IpValue): boolean {
  return LOCAL_RANGES.some((r) => inRange(ip, r)) || interfaceAddresses().includes(ip);
}
