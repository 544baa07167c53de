import { SCHEDULE_MESSAGES } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';

/** Five cron expressions people ask for most, offered as buttons beside the field. */
export const CRON_PRESETS: readonly { cron: string; label: MessageKey }[] = [
  { cron: '0 2 * * 1-5', label: 'schedules.presetWeekdays' },
  { cron: '0 2 * * *', label: 'schedules.presetDaily' },
  { cron: '0 * * * *', label: 'schedules.presetHourly' },
  { cron: '0 9 * * 1', label: 'schedules.presetMonday' },
];

/**
 * A schedule problem from the model (packages/plan/src/schedules.ts, the server's words too) in the user's
 * language; a sentence the model does not say (a server error) as it is.
 */
export function scheduleProblemText(message: string, t: Translate): string {
  if (message === SCHEDULE_MESSAGES.cronRequired) return t('schedules.cronRequired');
  if (message === SCHEDULE_MESSAGES.cronNever) return t('schedules.cronNever');
  const fields = /this one has (\d+)$/.exec(message);
  if (fields !== null && message === SCHEDULE_MESSAGES.cronFields(Number(fields[1])))
    return t('schedules.cronFields', { count: Number(fields[1]) });
  const invalid = /^The cron expression does not read: (.*)$/s.exec(message);
  if (invalid !== null) return t('schedules.cronInvalid', { reason: invalid[1] ?? '' });
  const zone = /^"(.*)" is not a time zone/s.exec(message);
  if (zone !== null && message === SCHEDULE_MESSAGES.timezoneInvalid(zone[1] ?? ''))
    return t('schedules.timezoneInvalid', { zone: zone[1] ?? '' });
  return message;
}

/** A time as the user reads it in the schedule's own zone: "Mon, Dec 7, 2026, 02:00 GMT+9". */
export function formatInZone(iso: string, timezone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: timezone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}
