import { DemoCredentialsSchema } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute } from '../route';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'unavailable']).describe('ok once a trivial query answered'),
  reason: z.string().optional().describe('Why the database is unavailable'),
  version: z.string(),
});

export const system = {
  health: defineRoute({
    method: 'GET',
    url: '/api/health',
    schema: {
      tags: ['system'],
      summary: 'Liveness and database reachability',
      response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
    },
  }),
  demoCredentials: defineRoute({
    method: 'GET',
    url: '/api/demo-credentials',
    schema: {
      tags: ['account'],
      summary:
        'What the sign-in page shows: the demo account, when it is enabled, and whether sign-up is open',
      response: { 200: DemoCredentialsSchema },
    },
  }),
};
