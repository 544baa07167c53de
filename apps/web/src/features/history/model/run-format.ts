import { isNumber } from '@/features/results';

export { isFinished } from '@/features/results';

/** docs/reference/02-running.md §2: a past run's duration as "Nm Ns" (whole seconds); the dash when unknown. */
export function formatMinutesSeconds(seconds: unknown): string {
  if (!isNumber(seconds) || seconds < 0) return '—';
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${whole % 60}s`;
}

/** A date and time in the user's language, or null for a missing or unreadable value. */
export function formatDateTime(
  value: string | null | undefined,
  locale: string,
  style: 'short' | 'medium' = 'short',
  dateStyle: 'short' | 'medium' = 'medium',
): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle, timeStyle: style }).format(at);
}

export function formatDate(value: string | null | undefined, locale: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
}

/**
 * docs/reference/02-running.md §2: a past run is titled by its plan name; null when it has none, and the screen then says
 * 'Test {id}'. A name the user gave the run does not replace it (see runOwnName).
 */
export function runTitle(run: { plan_name?: string | null }): string | null {
  return run.plan_name?.trim() || null;
}

/** The name the user gave a run, shown under its title, when it says more than the plan name. */
export function runOwnName(run: { test_name?: string | null; plan_name?: string | null }): string | null {
  const own = run.test_name?.trim();
  return own && own !== runTitle(run) ? own : null;
}
