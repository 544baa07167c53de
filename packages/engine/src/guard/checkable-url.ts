/**
 * The URL when its scheme, host and port are written out, so the guard can check it before anything
 * is sent; null when they hold a template (`{{base}}/x`, `http://{{env}}.example.com`) or the text is
 * not an http(s) URL. Templates in the path or query do not matter: the host is what is checked.
 */
export function checkableUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.hostname.includes('{') || url.hostname.includes('}') ? null : url;
}
