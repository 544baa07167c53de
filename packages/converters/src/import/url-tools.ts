/**
 * URLs as the plan keeps them: a full http(s) URL or one that starts with a {{variable}}, no white space,
 * and the query string held as parameters (so the editor shows them as rows).
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Repairs a URL as written by a person or a tool into the model's shape: a missing scheme becomes http://
 * (what curl and Postman assume), `//host` becomes https://host, and white space is percent-encoded.
 */
export function toPlanUrl(raw: string): string {
  let url = raw.trim();
  if (url.startsWith('//')) url = `https:${url}`;
  url = url.replace(/^(https?):\\\\/i, '$1://');
  if (url !== '' && !SCHEME.test(url) && !url.startsWith('{{')) url = `http://${url}`;
  return url.replace(/\s/g, (space) => encodeURIComponent(space));
}

export interface QueryPair {
  key: string;
  value: string;
}

/**
 * Splits "https://h/p?a=1&b=%20x#frag" into the URL without its query (and fragment) and the decoded
 * pairs. Empty pieces ("a=1&&b") are dropped; a key without "=" gets an empty value.
 */
export function splitQuery(url: string): { base: string; query: QueryPair[] } {
  const hash = url.indexOf('#');
  // "{{#var}}" is not a fragment; only a # outside double braces is.
  const cut = hash !== -1 && !insideBraces(url, hash) ? hash : url.length;
  const withoutFragment = url.slice(0, cut);
  const mark = withoutFragment.indexOf('?');
  if (mark === -1) return { base: withoutFragment, query: [] };
  return {
    base: withoutFragment.slice(0, mark),
    query: parseQueryString(withoutFragment.slice(mark + 1)),
  };
}

export function parseQueryString(query: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const key = eq === -1 ? piece : piece.slice(0, eq);
    const value = eq === -1 ? '' : piece.slice(eq + 1);
    if (key === '' && value === '') continue;
    pairs.push({ key: decodeComponent(key), value: decodeComponent(value) });
  }
  return pairs;
}

/** decodeURIComponent that treats + as a space and leaves malformed escapes as written. */
export function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function insideBraces(text: string, index: number): boolean {
  const open = text.lastIndexOf('{{', index);
  if (open === -1) return false;
  const close = text.indexOf('}}', open);
  return close !== -1 && close > index;
}

/** "https://h/base/" + "/pets" → "https://h/base/pets" (exactly one slash between). */
export function joinUrl(base: string, path: string): string {
  if (path === '') return base;
  if (base === '') return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The path of a URL for display ("https://h:1/a/b?x" → "/a/b"); templates are kept. */
export function urlPath(url: string): string {
  const { base } = splitQuery(url);
  const afterScheme = base.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^\{\{[^}]*\}\}/, '');
  return afterScheme === '' ? '/' : afterScheme;
}

/** The host of a URL, or "" when it has none that can be read. */
export function urlHost(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(url);
  return match?.[1] ?? '';
}

/**
 * form-urlencoded text of pairs, as a browser writes it; {{variables}} are left as written. With
 * `brackets`, the [ ] of nested field names (card[number], items[0][price]) stay readable, as Stripe's own
 * clients send them; servers read them either way.
 */
export function formUrlEncode(pairs: readonly QueryPair[], options: { brackets?: boolean } = {}): string {
  return pairs
    .map(({ key, value }) => {
      const name = encodeFormComponent(key);
      return `${options.brackets ? name.replace(/%5B/g, '[').replace(/%5D/g, ']') : name}=${encodeFormComponent(value)}`;
    })
    .join('&');
}

function encodeFormComponent(text: string): string {
  return text
    .split(/(\{\{[^{}]*\}\})/)
    .map((piece, i) => (i % 2 === 1 ? piece : encodeURIComponent(piece).replace(/%20/g, '+')))
    .join('');
}

export const MULTIPART_BOUNDARY = '----AnybodyQAFormBoundary7MA4YWxkTrZu0gW';

export interface MultipartPart {
  name: string;
  value: string;
  /** Set for a file part; the value is then the file's content as text. */
  fileName?: string | undefined;
  contentType?: string | undefined;
}

/** A multipart/form-data body as text, for the Content-Type `multipart/form-data; boundary=<boundary>`. */
export function multipartBody(parts: readonly MultipartPart[], boundary = MULTIPART_BOUNDARY): string {
  const quote = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  let body = '';
  for (const part of parts) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
    if (part.fileName !== undefined) body += `; filename="${quote(part.fileName)}"`;
    body += '\r\n';
    if (part.contentType) body += `Content-Type: ${part.contentType}\r\n`;
    body += `\r\n${part.value}\r\n`;
  }
  return `${body}--${boundary}--\r\n`;
}

export function multipartContentType(boundary = MULTIPART_BOUNDARY): string {
  return `multipart/form-data; boundary=${boundary}`;
}
