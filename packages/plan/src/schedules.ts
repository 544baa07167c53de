import { Cron } from 'croner';
import cronstrue from 'cronstrue';
// Registers cronstrue's Korean words; the app speaks English and Korean (docs/adr/0010-english-and-korean.md).
import 'cronstrue/locales/ko.js';
import { z } from 'zod';
import { oneLine } from './strict-input';

/*
 * Schedules (docs/adr/0031-schedules.md): a saved plan of any kind runs at the times of a cron
 * expression, in a time zone. The wire shapes of /api/schedules and the one reading of a cron expression
 * — its problems, its next times, its words — shared by the server (which fires the runs) and the web
 * app (which previews them while the user types); there is no second copy.
 */

/** Schedules a user may hold at once. */
export const SCHEDULES_PER_USER = 200;
/** The next times a schedule answers and the screen previews. */
export const SCHEDULE_PREVIEW_RUNS = 5;
/** The longest cron expression, in characters (five fields of lists and ranges fit well within it). */
export const CRON_MAX = 120;

export const SCHEDULE_MESSAGES = {
  planRequired: 'plan_id is required: the id of the saved plan to run',
  cronRequired: 'Please enter a cron expression, e.g. "0 2 * * 1-5" (every weekday at 02:00)',
  cronTooLong: `A cron expression is at most ${CRON_MAX} characters`,
  cronFields: (count: number) =>
    `A cron expression has five fields (minute hour day-of-month month day-of-week); this one has ${count}`,
  cronInvalid: (reason: string) => `The cron expression does not read: ${reason}`,
  cronNever: 'This cron expression never comes round (e.g. 30 February): pick days that exist',
  timezoneInvalid: (zone: string) =>
    `"${zone}" is not a time zone: use an IANA name such as "Asia/Seoul", "Europe/Berlin" or "UTC"`,
  notFound: 'Schedule not found',
  planNotFound: 'Test plan not found: schedule a plan you saved',
  tooMany: `You already have ${SCHEDULES_PER_USER} schedules. Delete one you no longer use before adding another.`,
  unknownChannels: 'channel_ids: names a notification channel you do not have',
} as const;

/** What happened the last time a schedule came round (docs/adr/0031-schedules.md "Firing"). */
export const SCHEDULE_OUTCOMES = ['started', 'skipped', 'not_started', 'missed'] as const;
export type ScheduleOutcome = (typeof SCHEDULE_OUTCOMES)[number];

/** The kind of plan a schedule runs: a load plan (`plans`) or an API, script or UI plan (`functional_plans`). */
export const SCHEDULE_PLAN_KINDS = ['load', 'functional'] as const;
export type SchedulePlanKind = (typeof SCHEDULE_PLAN_KINDS)[number];

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Trims and collapses the blanks between fields, so "0  2 * * *" is stored as "0 2 * * *". */
export function normalCron(cron: string): string {
  return cron.trim().split(/\s+/).join(' ');
}

function cronOf(cron: string, timezone: string): Cron {
  return new Cron(normalCron(cron), { timezone, paused: true, mode: '5-part' });
}

/**
 * What is wrong with a cron expression, in words, or null when it reads and comes round. Five fields
 * only: a schedule runs at most once a minute (croner would read a sixth field as seconds).
 */
export function cronProblem(cron: string): string | null {
  const normal = normalCron(cron);
  if (normal === '') return SCHEDULE_MESSAGES.cronRequired;
  if (normal.length > CRON_MAX) return SCHEDULE_MESSAGES.cronTooLong;
  const fields = normal.split(' ').length;
  if (fields !== 5) return SCHEDULE_MESSAGES.cronFields(fields);
  try {
    if (cronOf(normal, 'UTC').nextRun(new Date(Date.UTC(2000, 0, 1))) === null)
      return SCHEDULE_MESSAGES.cronNever;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Cron\w*:\s*/, '') : String(error);
    return SCHEDULE_MESSAGES.cronInvalid(reason);
  }
  return null;
}

/**
 * The next `count` times (ISO-8601 UTC) a valid cron expression comes round after `afterMs`, read in
 * `timezone` (across daylight-saving changes as croner reads them).
 */
export function nextRunTimes(
  cron: string,
  timezone: string,
  afterMs: number,
  count = SCHEDULE_PREVIEW_RUNS,
): string[] {
  return cronOf(cron, timezone)
    .nextRuns(count, new Date(afterMs))
    .map((at) => at.toISOString());
}

/**
 * A cron expression in words, in the app's language, with its time zone: "At 02:00, Monday through
 * Friday (Asia/Seoul)". Null when it does not read.
 */
export function describeSchedule(
  cron: string,
  timezone: string,
  language: 'en' | 'ko' = 'en',
): string | null {
  if (cronProblem(cron) !== null) return null;
  const words = cronstrue.toString(normalCron(cron), {
    locale: language,
    use24HourTimeFormat: true,
    throwExceptionOnParseError: false,
  });
  return `${words} (${timezone})`;
}

const cronField = z
  .string({ error: SCHEDULE_MESSAGES.cronRequired })
  .max(CRON_MAX * 2, SCHEDULE_MESSAGES.cronTooLong)
  .superRefine((cron, ctx) => {
    const problem = cronProblem(cron);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normalCron)
  .describe('Five fields: minute hour day-of-month month day-of-week, e.g. "0 2 * * 1-5"');

const timezoneField = z
  .string()
  .trim()
  .max(64)
  .superRefine((zone, ctx) => {
    if (!isTimeZone(zone)) ctx.addIssue({ code: 'custom', message: SCHEDULE_MESSAGES.timezoneInvalid(zone) });
  })
  .describe('An IANA time zone, e.g. "Asia/Seoul"; the times of the cron expression are read in it');

const channelIds = z
  .array(z.string().trim().min(1).max(200), {
    error: 'channel_ids must be a list of notification channel ids',
  })
  .max(20, 'channel_ids names at most 20 channels')
  .describe(
    "Notification channels told of this schedule's runs, beside the plan's own (docs/adr/0032-notifications-out.md)",
  );

/** POST /api/schedules body. */
export const ScheduleCreateSchema = z.object({
  plan_id: oneLine('plan_id', SCHEDULE_MESSAGES.planRequired)
    .trim()
    .min(1, SCHEDULE_MESSAGES.planRequired)
    .max(200)
    .describe('A saved plan of any kind: load, API, script or UI'),
  cron: cronField,
  timezone: timezoneField
    .optional()
    .describe("An IANA time zone; the workspace's time zone when left out (UTC in a personal workspace)"),
  enabled: z.boolean().default(true).describe('false: kept, but does not run until enabled'),
  channel_ids: channelIds.default([]),
});
export type ScheduleCreate = z.input<typeof ScheduleCreateSchema>;

/** PUT /api/schedules/:id body: what a schedule may change (its plan stays). */
export const ScheduleUpdateSchema = z.object({
  cron: cronField.optional(),
  timezone: timezoneField.optional(),
  enabled: z.boolean().optional(),
  channel_ids: channelIds.optional(),
});
export type ScheduleUpdate = z.input<typeof ScheduleUpdateSchema>;

/** The last time a schedule came round, as stored. */
export const ScheduleLastRunSchema = z.object({
  at: z.string().describe('ISO time the schedule came round'),
  outcome: z
    .enum(SCHEDULE_OUTCOMES)
    .describe(
      'started: a run began; skipped: the previous run of the plan was still going; not_started: the start was refused (the reason says why); missed: the server was down at the time',
    ),
  run_id: z.string().nullable().describe('The run it started; null unless started'),
  reason: z.string().nullable().describe('Why it did not start, in words; null when started'),
});
export type ScheduleLastRun = z.infer<typeof ScheduleLastRunSchema>;

/** A schedule as listed and answered. */
export const ScheduleSchema = z.object({
  id: z.string(),
  plan_id: z.string(),
  plan_kind: z.enum(SCHEDULE_PLAN_KINDS),
  plan_name: z.string().describe('The plan as it is named now'),
  test_type: z.string().describe("The plan's kind in words the lists use: performance, api, script, ui…"),
  cron: z.string(),
  timezone: z.string(),
  description: z.string().describe('The cron expression in English words with its time zone'),
  enabled: z.boolean(),
  channel_ids: z.array(z.string()).describe("The notification channels told of this schedule's runs"),
  next_runs: z
    .array(z.string())
    .describe(`The next ${SCHEDULE_PREVIEW_RUNS} times, ISO UTC; empty while disabled`),
  last_run: ScheduleLastRunSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) });
export type ScheduleList = z.infer<typeof ScheduleListSchema>;

/** POST /api/schedules answer: the issue's `{id, next_runs}` and the whole schedule beside them. */
export const ScheduleCreatedSchema = ScheduleSchema;
