import { HTTP_METHODS, PlannedProfileSchema, TOOLS } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute, SCOPED_ERRORS_WITH_404 } from '../route';
import { SavedPlanSchema } from '../schemas/plan';

const TextCommandBodySchema = z.object({
  plan_id: z.string().trim().min(1, 'Give the id of a saved plan').max(200),
  command: z
    .string()
    .max(10_000)
    .describe('English or Korean, e.g. "set users to 50 and duration to 10 minutes"'),
  user_email: z.string().max(254).optional().describe('Optional; must name the signed-in user'),
});

const ParsedUpdateSchema = z.object({
  field: z.enum([
    'name',
    'tool',
    'concurrent_users',
    'duration',
    'thinkTime',
    'timeout',
    'transactionRate',
    'method',
    'addHeader',
    'removeHeader',
    'bearerToken',
    'removeApi',
    'loadProfile',
  ]),
  value: z
    .union([
      z.enum(TOOLS),
      z.enum(HTTP_METHODS),
      z.string(),
      z.number(),
      z.boolean(),
      z.object({ name: z.string(), value: z.string() }),
      PlannedProfileSchema,
    ])
    .describe(
      'Duration in minutes, timeout in seconds, think time as text ("2s"), transaction rate in percent, loadProfile the whole new profile',
    ),
  scope: z
    .union([z.literal('plan'), z.literal('all'), z.object({ api: z.number().int().min(0) })])
    .describe('The plan, every API, or one API by its 0-based index in urls'),
});

export const TextCommandResponseSchema = z.object({
  message: z.string(),
  parsed_updates: z.array(ParsedUpdateSchema),
  updated_plan: SavedPlanSchema,
});

export const textCommands = {
  apply: defineRoute({
    method: 'POST',
    url: '/api/update-test-plan-command',
    schema: {
      tags: ['plans'],
      summary:
        'Edit a saved plan by a text command; all changes are saved together, or none when any part is not understood',
      body: TextCommandBodySchema,
      response: {
        200: TextCommandResponseSchema,
        ...SCOPED_ERRORS_WITH_404,
      },
    },
  }),
};
