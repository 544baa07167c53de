import { comparisonLabel } from './format';

/**
 * Names of APIs on chart axes. A step without a name of its own is called by the server "METHOD url"
 * ("GET http://127.0.0.1:5200/users/1"), which the spec's 15-character cut (docs/reference/02-running.md
 * §9) turned into "GET http://127..." for every API of a host. Charts call such a step by its method and
 * path instead, and never cut two labels to the same text.
 */

export interface NamedApi {
  name?: string | null;
  label?: string | null;
  url?: string | null;
  method?: string | null;
}

/** The path, query and fragment of a URL ("/users/1?page=2"); the text itself when it has no host. */
export function urlPath(url: string): string {
  const text = url.trim();
  const match = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*(.*)$/i.exec(text);
  if (!match) return text;
  return match[1] || '/';
}

/**
 * An API's name on a chart: its own name, else "METHOD /path". The server's generated name ("METHOD
 * url", or the bare url) is not a name of its own. Null when there is nothing to name it by.
 */
export function apiChartName(api: NamedApi): string | null {
  const own = ownApiName(api);
  if (own) return own;
  const url = api.url?.trim();
  if (url) return [api.method?.trim().toUpperCase(), urlPath(url)].filter(Boolean).join(' ');
  return api.name?.trim() || api.label?.trim() || null;
}

/** Characters per line of a label shown whole. */
export const LABEL_LINE_LENGTH = 18;

/** A label broken into lines of at most LABEL_LINE_LENGTH characters, at spaces and slashes when it can. */
export function wrapLabel(label: string): string[] {
  const lines: string[] = [];
  let rest = Array.from(label);
  while (rest.length > LABEL_LINE_LENGTH) {
    const head = rest.slice(0, LABEL_LINE_LENGTH + 1);
    let at = Math.max(head.lastIndexOf(' '), head.lastIndexOf('/'));
    if (at <= 0) at = LABEL_LINE_LENGTH;
    lines.push(rest.slice(0, at).join('').trimEnd());
    rest = rest.slice(rest[at] === ' ' ? at + 1 : at);
  }
  lines.push(rest.join(''));
  return lines;
}

/**
 * The axis labels of the API comparison: each name cut as the spec says, except names that the cut
 * would make look alike — those are shown whole, over several lines, so that two APIs never share a label.
 */
export function comparisonLabels(names: readonly string[]): (string | string[])[] {
  const cuts = names.map(comparisonLabel);
  const seen = new Map<string, number>();
  for (const label of cuts) seen.set(label, (seen.get(label) ?? 0) + 1);
  return names.map((name, i) => {
    const label = cuts[i]!;
    if ((seen.get(label) ?? 0) < 2 || label === name) return label;
    const lines = wrapLabel(name);
    return lines.length === 1 ? lines[0]! : lines;
  });
}

/** The scheme and host of a URL ("https://shop.test:8443"); null when it has none (a {{variable}} base). */
export function urlOrigin(url: string | null | undefined): string | null {
  const match = /^([a-z][a-z\d+.-]*:\/\/[^/?#]+)/i.exec(url?.trim() ?? '');
  return match?.[1] ?? null;
}

/** An API's own name: its name or label unless the server made it from the call ("METHOD url", the url). */
export function ownApiName(api: NamedApi): string | null {
  const method = api.method?.trim().toUpperCase() ?? '';
  const url = api.url?.trim() ?? '';
  const generated = new Set([url, `${method} ${url}`].filter(Boolean));
  for (const value of [api.name, api.label]) {
    const own = value?.trim();
    if (own && !generated.has(own)) return own;
  }
  return null;
}

/**
 * How a row of an API table or card is labelled (issue 24): its own name, else its path — never
 * "METHOD + full URL", which made every row start with the same host. The method has its own badge,
 * the host is said once above (sharedOrigin), and the whole URL is the row's hover title.
 */
export function apiRowLabel(api: NamedApi): string | null {
  const own = ownApiName(api);
  if (own) return own;
  const url = api.url?.trim();
  if (url) return urlPath(url);
  return api.name?.trim() || api.label?.trim() || null;
}

/**
 * The small line under a row's label: the whole URL when no host is said above; under an API's own name,
 * its path when the host is said above (sharedOrigin); nothing when the label already is that path.
 */
export function apiUrlLine(api: NamedApi, origin: string | null): string | null {
  if (!api.url) return null;
  if (origin === null) return api.url;
  return ownApiName(api) === null ? null : urlPath(api.url);
}

/** The one scheme and host all the APIs call, to be said once above them; null when they call several. */
export function sharedOrigin(apis: readonly NamedApi[]): string | null {
  const origins = new Set(apis.map((api) => urlOrigin(api.url)));
  if (origins.size !== 1) return null;
  const [origin] = origins;
  return origin ?? null;
}
