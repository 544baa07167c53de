import { DemoCredentialsSchema } from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DemoAccountService } from '../services/demo-account.service';

const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'unavailable']).describe('ok once a trivial query answered'),
  reason: z.string().optional().describe('Why the database is unavailable'),
  version: z.string(),
});

export interface SystemRouteOptions {
  /** Resolves once the database answered a query; rejects when it cannot. */
  pingDatabase: () => Promise<void>;
  demo: DemoAccountService;
  /** Whether anyone may create an account (Config.signUp); the sign-in page hides sign-up when not. */
  signUp: boolean;
  version: string;
}

export const systemRoutes: FastifyPluginCallbackZod<SystemRouteOptions> = (
  app,
  { pingDatabase, demo, signUp, version },
  done,
) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        await pingDatabase();
        return { status: 'ok' as const, database: 'ok' as const, version };
      } catch (err) {
        request.log.error({ err }, 'Health check: the database did not answer');
        // The functional dashboard's Backend Status badge reads this (docs/reference/02-running.md §7).
        const reason = err instanceof Error ? err.message : String(err);
        return reply.code(503).send({ status: 'error', database: 'unavailable', reason, version });
      }
    },
  );

  app.get(
    '/api/demo-credentials',
    {
      schema: {
        tags: ['account'],
        summary:
          'What the sign-in page shows: the demo account, when it is enabled, and whether sign-up is open',
        response: { 200: DemoCredentialsSchema },
      },
    },
    () => ({ ...demo.credentials(), sign_up: signUp }),
  );

  done();
};
