import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { UploadLimits } from '../config';
import type { DemoAccountService } from '../services/demo-account.service';

export interface SystemRouteOptions {
  /** Resolves once the database answered a query; rejects when it cannot. */
  pingDatabase: () => Promise<void>;
  demo: DemoAccountService;
  /** Whether anyone may create an account (Config.signUp); the sign-in page hides sign-up when not. */
  signUp: boolean;
  version: string;
  /** The uploads' bounds (Config.uploads), which the web checks a file against before sending it. */
  uploads: UploadLimits;
}

export const systemRoutes: FastifyPluginCallbackZod<SystemRouteOptions> = (
  app,
  { pingDatabase, demo, signUp, version, uploads },
  done,
) => {
  app.route({
    ...contract.system.health,
    handler: async (request, reply) => {
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
  });

  app.route({
    ...contract.system.demoCredentials,
    handler: () => ({ ...demo.credentials(), sign_up: signUp }),
  });

  app.route({
    ...contract.system.uploadLimits,
    handler: () => ({ max_file_bytes: uploads.maxFileBytes, max_upload_bytes: uploads.maxUploadBytes }),
  });

  done();
};
