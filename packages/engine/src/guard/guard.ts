import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isMetadataName, isNeverAddress, isOwnAddress } from './always-refused';
import { parseIp, type IpValue } from './ip';
import { normalizeHost, parseTargetRules, ruleForAddress, ruleForHost, type TargetRule } from './rules';

/** AQA_TARGETS_ALLOW / AQA_TARGETS_DENY as written: host names, *.domains, IP addresses, CIDR ranges. */
export interface TargetLists {
  allow: readonly string[];
  deny: readonly string[];
}

/** Everything a guard decides by, as plain data: what a worker thread is given to build its own. */
export interface TargetGuardSettings {
  allow: string[];
  deny: string[];
  /** The ports this server listens on, as read when the settings were taken. */
  ownPorts: number[];
}

export type TargetDecision = { allowed: true } | { allowed: false; reason: string };

/** Resolves a host name to its addresses (dns.lookup with all: true by default). */
export type Resolver = (host: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

/** A refusal raised where a connection was about to be opened; its message is the decision's reason. */
export class TargetRefusedError extends Error {
  /** Counted as a connection failure by the engine (executor/http-error.ts). */
  readonly code = 'AQA_TARGET_REFUSED';

  constructor(reason: string) {
    super(reason);
    this.name = 'TargetRefusedError';
  }
}

export interface TargetGuardOptions {
  /** The ports this server listens on, read at each decision (the server knows its port only after listen). */
  ownPorts?: () => readonly number[];
  /** Replaces dns.lookup (tests). */
  resolve?: Resolver;
}

const NEVER_REASON = 'link-local and cloud metadata addresses are never tested.';
const SELF_REASON = 'that is this AnybodyQA server itself.';

const systemResolve: Resolver = (host, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * The target guard (docs/design.md §11, docs/adr/0015-target-guard.md): decides whether a request
 * on a user's behalf may go to a host and port, on the host's name and on every address it resolves
 * to. In order: metadata host names and link-local / metadata addresses are refused; this server's
 * own port on any address of this machine is refused; AQA_TARGETS_DENY refuses what it names; a
 * non-empty AQA_TARGETS_ALLOW refuses what it does not name.
 */
export class TargetGuard {
  private readonly allow: TargetRule[];
  private readonly deny: TargetRule[];
  private readonly ownPorts: () => readonly number[];
  private readonly resolver: Resolver;

  constructor(
    private readonly lists: TargetLists,
    options: TargetGuardOptions = {},
  ) {
    const allow = parseTargetRules(lists.allow);
    const deny = parseTargetRules(lists.deny);
    const problems = [
      ...allow.problems.map((p) => `AQA_TARGETS_ALLOW: ${p}`),
      ...deny.problems.map((p) => `AQA_TARGETS_DENY: ${p}`),
    ];
    if (problems.length > 0) throw new Error(problems.join('; '));
    this.allow = allow.rules;
    this.deny = deny.rules;
    this.ownPorts = options.ownPorts ?? (() => []);
    this.resolver = options.resolve ?? systemResolve;
  }

  /** Rebuilds a guard from settings() (in a worker thread). */
  static fromSettings(settings: TargetGuardSettings, resolve?: Resolver): TargetGuard {
    const ports = [...settings.ownPorts];
    return new TargetGuard(settings, { ownPorts: () => ports, ...(resolve ? { resolve } : {}) });
  }

  /** The lists and the own ports as they are now, as plain data. */
  settings(): TargetGuardSettings {
    return { allow: [...this.lists.allow], deny: [...this.lists.deny], ownPorts: [...this.ownPorts()] };
  }

  /**
   * The decision for a host (as written in the URL), the port the connection goes to and the
   * addresses the host resolved to (the host itself when it is an address; none when it did not
   * resolve). Every address must pass.
   */
  decide(target: { host: string; port: number; addresses: readonly string[] }): TargetDecision {
    const host = normalizeHost(target.host);
    const literal = parseIp(host) !== null;
    const addresses = target.addresses
      .map((text) => ({ text, ip: parseIp(text) }))
      .filter((a): a is { text: string; ip: IpValue } => a.ip !== null);
    const named = (address: string) => (literal ? host : `${host} (${address})`);

    const byName = this.refusedByName(host);
    if (byName) return byName;
    const never = addresses.find((a) => isNeverAddress(a.ip));
    if (never) return refusal(named(never.text), NEVER_REASON);
    if (this.ownPorts().includes(target.port) && addresses.some((a) => isOwnAddress(a.ip))) {
      return refusal(`${literal && host.includes(':') ? `[${host}]` : host}:${target.port}`, SELF_REASON);
    }

    for (const a of addresses) {
      const rule = ruleForAddress(this.deny, a.ip);
      if (rule) return refusal(named(a.text), `it is in AQA_TARGETS_DENY (${rule.text}).`);
    }

    if (this.allow.length === 0 || ruleForHost(this.allow, host)) return { allowed: true };
    const outside = addresses.find((a) => ruleForAddress(this.allow, a.ip) === undefined);
    if (addresses.length === 0) return refusal(host, 'it is not in AQA_TARGETS_ALLOW.');
    if (outside) return refusal(named(outside.text), 'it is not in AQA_TARGETS_ALLOW.');
    return { allowed: true };
  }

  /** A refusal the host's name alone decides (a metadata name, a name in AQA_TARGETS_DENY), if any. */
  private refusedByName(host: string): TargetDecision | undefined {
    if (isMetadataName(host)) return refusal(host, NEVER_REASON);
    const rule = ruleForHost(this.deny, host);
    return rule ? refusal(host, `it is in AQA_TARGETS_DENY (${rule.text}).`) : undefined;
  }

  /** Resolves the host (unless its name alone decides) and decides. A name that does not resolve is decided by its name. */
  async check(hostText: string, port: number): Promise<TargetDecision> {
    const host = normalizeHost(hostText);
    if (parseIp(host) !== null) return this.decide({ host, port, addresses: [host] });
    const byName = this.refusedByName(host);
    if (byName) return byName;
    let addresses: string[] = [];
    try {
      addresses = (await this.resolver(host, 0)).map((a) => a.address);
    } catch {
      // Not found: the request would fail anyway; the name's rules still apply.
    }
    return this.decide({ host, port, addresses });
  }

  /** The preflight of a URL: its host and port (the scheme's default when it names none), resolved and decided. */
  checkUrl(url: string | URL): Promise<TargetDecision> {
    const u = typeof url === 'string' ? new URL(url) : url;
    return this.check(u.hostname, portOf(u.port, u.protocol));
  }

  /**
   * A `lookup` for net.connect / tls.connect (and so undici's connect options) of a connection to
   * `port`: resolves like dns.lookup and fails with TargetRefusedError when any address it found is
   * refused, so a name that resolves (or re-resolves) to a refused address never connects.
   * net.connect does not call `lookup` for an IP address: check those with decide() (connector.ts).
   */
  lookupFor(port: number): LookupFunction {
    return (hostname, options, callback) => {
      const family = options.family === 4 || options.family === 6 ? options.family : 0;
      this.resolver(hostname, family).then(
        (found) => {
          const decision = this.decide({ host: hostname, port, addresses: found.map((a) => a.address) });
          if (!decision.allowed) return callback(new TargetRefusedError(decision.reason), '', 0);
          if (options.all === true) return callback(null, found);
          const first = found[0];
          if (first === undefined) return callback(notFound(hostname), '', 0);
          callback(null, first.address, first.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, '', 0),
      );
    };
  }
}

function refusal(who: string, why: string): TargetDecision {
  return { allowed: false, reason: `Requests to ${who} are refused: ${why}` };
}

/** A URL's port as a number: the scheme's default when the URL names none. */
export function portOf(port: string, protocol: string): number {
  return port === '' ? (protocol === 'https:' ? 443 : 80) : Number(port);
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}
