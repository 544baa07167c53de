import {
  ErrorResponseSchema,
  ScheduleCreatedSchema,
  ScheduleCreateSchema,
  ScheduleListSchema,
  ScheduleSchema,
  ScheduleUpdateSchema,
} from '@aqa/plan';
import {
  defineRoute,
  IdParamsSchema,
  NoContentSchema,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
} from '../route';

const tags = ['schedules'];

/**
 * Schedules (docs/adr/0031-schedules.md): a saved plan of any kind runs at the times of a cron
 * expression in a time zone, once across all replicas; the caller's own schedules only.
 */
export const schedules = {
  create: defineRoute({
    method: 'POST',
    url: '/api/schedules',
    schema: {
      tags,
      summary: 'Schedule a saved plan: it runs at the times of a cron expression, read in a time zone',
      description:
        "Answers the schedule with `next_runs`, its next five times (ISO UTC). A plan that is not the caller's answers 404 PLAN_NOT_FOUND; a cron expression that does not read, or never comes round, 400 naming the field. When a time comes round while the plan's previous run is still going, the run is skipped and the schedule says so.",
      body: ScheduleCreateSchema,
      response: {
        201: ScheduleCreatedSchema,
        ...SCOPED_ERRORS_WITH_404,
        409: ErrorResponseSchema.describe('The caller holds the most schedules allowed (TOO_MANY_SCHEDULES)'),
      },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/schedules',
    schema: {
      tags,
      summary: "The caller's schedules, with each one's last run and next five times",
      response: { 200: ScheduleListSchema, ...SCOPED_ERRORS },
    },
  }),
  update: defineRoute({
    method: 'PUT',
    url: '/api/schedules/:id',
    schema: {
      tags,
      summary: 'Change when a schedule runs, or turn it off and on; fields left out are kept',
      params: IdParamsSchema,
      body: ScheduleUpdateSchema,
      response: { 200: ScheduleSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  remove: defineRoute({
    method: 'DELETE',
    url: '/api/schedules/:id',
    schema: {
      tags,
      summary: 'Delete a schedule; the runs it started stay',
      params: IdParamsSchema,
      response: { 204: NoContentSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
};
