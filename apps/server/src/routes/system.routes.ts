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
  /** Single sign-on's button (docs/adr/0033-single-sign-on.md), when it is set up. */
  sso: { name: string } | undefined;
  /** PASSWORD_SIGN_IN: off hides the password form (and the demo account, which could not sign in). */
  passwordSignIn: boolean;
  version: string;
  /** The uploads' bounds (Config.uploads), which the web checks a file against before sending it. */
  uploads: UploadLimits;
}

export const systemRoutes: FastifyPluginCallbackZod<SystemRouteOptions> = (
  app,
  { pingDatabase, demo, signUp, sso, passwordSignIn, version, uploads },
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
    handler: () => ({
      ...(passwordSignIn ? demo.credentials() : { enabled: false }),
      sign_up: signUp,
      ...(sso === undefined ? {} : { sso }),
      // Said only when off: clients written before it read an absent field as passwords working.
      ...(passwordSignIn ? {} : { password_sign_in: false }),
    }),
  });

  app.route({
    ...contract.system.uploadLimits,
    handler: () => ({ max_file_bytes: uploads.maxFileBytes, max_upload_bytes: uploads.maxUploadBytes }),
  });

  done();
};
