/**
 * Where a sign-in lands: the page the visitor was sent away from (a result a notification linked, an
 * invite link), else the dashboard. Only a path of this app is followed — "/…", never "//host" or
 * "/\\host", which a browser reads as another site — so a crafted link cannot send a new session away.
 */
export function appPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : '/dashboard';
}
