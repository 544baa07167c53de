/**
 * The time zones this browser knows, `first` (a workspace's zone, docs/adr/0035-workspaces-and-roles.md)
 * and the user's own at the top; UTC always among them. Schedules and workspaces offer these.
 */
export function timeZoneChoices(first?: string): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...(first ? [first] : []), own, 'UTC', ...all])];
}
