import { inRange, parseCidr, parseIp, type IpRange, type IpValue } from './ip';

/**
 * One entry of AQA_TARGETS_ALLOW / AQA_TARGETS_DENY (docs/adr/0015-target-guard.md): a host
 * name, `*.` and a domain (its subdomains, at any depth), an IP address or a CIDR range.
 * `text` is the entry as the operator wrote it, for the refusal's sentence.
 */
export type TargetRule =
  | { kind: 'host'; text: string; name: string }
  | { kind: 'subdomains'; text: string; domain: string }
  | { kind: 'range'; text: string; range: IpRange };

const LABEL = '[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*$`);

/** A host as rules compare it: lower case, without brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** Parses one list entry; a sentence naming the entry and what is wrong with it when it is not one. */
export function parseTargetRule(entry: string): TargetRule | string {
  const text = entry.trim();
  const bad = (why: string) => `"${text}" ${why}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return bad('is a URL; write only its host name');
  const cidr = parseCidr(text);
  if (typeof cidr === 'string') return bad(`is not a CIDR range: ${cidr}`);
  if (cidr !== null) return { kind: 'range', text, range: cidr };
  const ip = parseIp(text);
  if (ip !== null) return { kind: 'range', text, range: { base: ip, prefix: 128 } };
  const host = normalizeHost(text);
  if (/:\d+$/.test(host)) return bad('has a port; the lists take host names, IP addresses and CIDR ranges');
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  // "10.1.2" or "300.1.1.1" would be read as a host name otherwise: a typo'd address must not pass.
  const numeric = /^[0-9.]+$/.test(name);
  if (name === '' || numeric || !HOST_NAME.test(name)) {
    return bad('is not a host name, *.domain, IP address or CIDR range');
  }
  return wildcard ? { kind: 'subdomains', text, domain: name } : { kind: 'host', text, name };
}

/** Parses a whole list: the rules, and a sentence per bad entry. */
export function parseTargetRules(entries: readonly string[]): { rules: TargetRule[]; problems: string[] } {
  const rules: TargetRule[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const parsed = parseTargetRule(entry);
    if (typeof parsed === 'string') problems.push(parsed);
    else rules.push(parsed);
  }
  return { rules, problems };
}

/** The first rule that names the host itself (host names and *.domain), if any; `host` is normalized. */
export function ruleForHost(rules: readonly TargetRule[], host: string): TargetRule | undefined {
  return rules.find(
    (rule) =>
      (rule.kind === 'host' && rule.name === host) ||
      (rule.kind === 'subdomains' && host.endsWith(`.${rule.domain}`)),
  );
}

/** The first address or range rule that contains the address, if any. */
export function ruleForAddress(rules: readonly TargetRule[], ip: IpValue): TargetRule | undefined {
  return rules.find((rule) => rule.kind === 'range' && inRange(ip, rule.range));
}
