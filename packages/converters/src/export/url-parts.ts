import type { Value } from './script-model';

export interface UrlOrigin {
  protocol: 'http' | 'https';
  host: string;
  /** Empty when the URL names none. */
  port: string;
}

const ORIGIN = /^(https?):\/\/(\[[^\]]+\]|[^/:?#\s]+)(?::(\d+))?/i;

/**
 * The literal scheme, host and port of a URL value and the rest of it, for tools that keep them apart
 * (JMeter's HTTP sampler). Undefined when the origin itself comes from a template.
 */
export function splitOrigin(url: Value): { origin: UrlOrigin; rest: Value } | undefined {
  const first = url[0];
  if (first?.kind !== 'text') return undefined;
  const match = ORIGIN.exec(first.text);
  if (!match) return undefined;
  // A template right after the host (e.g. "http://api{{env}}.test") belongs to the host: keep it whole.
  const after = first.text.slice(match[0].length);
  if (after === '' && url.length > 1) return undefined;
  const rest: Value = after === '' ? url.slice(1) : [{ kind: 'text', text: after }, ...url.slice(1)];
  return {
    origin: {
      protocol: (match[1] ?? 'http').toLowerCase() as UrlOrigin['protocol'],
      host: match[2] ?? '',
      port: match[3] ?? '',
    },
    rest,
  };
}

/** "scheme://host[:port]" of the first step whose origin is literal, for tools that want a base host. */
export function originText(origin: UrlOrigin): string {
  return `${origin.protocol}://${origin.host}${origin.port ? `:${origin.port}` : ''}`;
}
