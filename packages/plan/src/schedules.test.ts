import { describe, expect, it } from 'vitest';
import {
  cronProblem,
  describeSchedule,
  nextRunTimes,
  ScheduleCreateSchema,
  SCHEDULE_MESSAGES,
} from './schedules';

describe('cron expressions of schedules', () => {
  it('reads the next weekday mornings in the time zone, across a weekend', () => {
    // Saturday 01:00 in Seoul: the next weekday 02:00 is Monday's.
    const after = Date.parse('2026-12-04T16:00:00Z');
    expect(nextRunTimes('0 2 * * 1-5', 'Asia/Seoul', after)).toEqual([
      '2026-12-06T17:00:00.000Z',
      '2026-12-07T17:00:00.000Z',
      '2026-12-08T17:00:00.000Z',
      '2026-12-09T17:00:00.000Z',
      '2026-12-10T17:00:00.000Z',
    ]);
  });

  it('follows daylight-saving time: 02:30 every day in Berlin is 01:30 UTC in winter and 00:30 in summer', () => {
    const [winter] = nextRunTimes('30 2 * * *', 'Europe/Berlin', Date.parse('2026-01-10T00:00:00Z'), 1);
    const [summer] = nextRunTimes('30 2 * * *', 'Europe/Berlin', Date.parse('2026-07-10T00:00:00Z'), 1);
    expect([winter, summer]).toEqual(['2026-01-10T01:30:00.000Z', '2026-07-10T00:30:00.000Z']);
  });

  it('says what is wrong with an expression that does not read or never comes round', () => {
    expect(cronProblem('0 2 * *')).toBe(SCHEDULE_MESSAGES.cronFields(4));
    expect(cronProblem('*/5 * * * * *')).toBe(SCHEDULE_MESSAGES.cronFields(6));
    expect(cronProblem('61 * * * *')).toMatch(/does not read: .*minute/i);
    expect(cronProblem('0 0 30 2 *')).toBe(SCHEDULE_MESSAGES.cronNever);
    expect(cronProblem('  ')).toBe(SCHEDULE_MESSAGES.cronRequired);
    expect(cronProblem('0  2 * * 1-5')).toBeNull();
  });

  it('puts an expression in English and Korean words with its time zone', () => {
    expect(describeSchedule('0 2 * * 1-5', 'Asia/Seoul')).toBe(
      'At 02:00, Monday through Friday (Asia/Seoul)',
    );
    expect(describeSchedule('0 2 * * 1-5', 'Asia/Seoul', 'ko')).toBe(
      '02:00, 월요일부터 금요일까지 (Asia/Seoul)',
    );
    expect(describeSchedule('nonsense', 'UTC')).toBeNull();
  });

  it('checks the body of a new schedule field by field', () => {
    const parsed = ScheduleCreateSchema.safeParse({
      plan_id: 'p',
      cron: ' 0   2 * * 1-5 ',
      timezone: 'Mars/Base',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['timezone', SCHEDULE_MESSAGES.timezoneInvalid('Mars/Base')],
    ]);
    // No time zone: the server gives the workspace's (docs/adr/0035-workspaces-and-roles.md).
    expect(ScheduleCreateSchema.parse({ plan_id: 'p', cron: ' 0   2 * * 1-5 ' })).toEqual({
      plan_id: 'p',
      cron: '0 2 * * 1-5',
      enabled: true,
      channel_ids: [],
    });
  });
});
