import type { preValidationHookHandler } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth, requireSession } from '../auth/authenticate';
import type { BearerThrottle } from '../auth/bearer-throttle';
import { toPublicUser } from '../services/account-user';
import { ACCOUNT_MESSAGES, type AccountService } from '../services/account.service';
import type { SessionService } from '../services/session.service';
import { ForbiddenError } from '../errors';
import { SSO_MESSAGES } from '@aqa/plan';

/**
 * A missing text field is treated as an empty one, so the answer names the spec's rule
 * ("Email is required") rather than a type error ("expected string, received undefined").
 */
function blankMissingFields(fields: readonly string[]): preValidationHookHandler {
  return (request, _reply, done) => {
    const body: unknown = request.body ?? {};
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const filled: Record<string, unknown> = { ...body };
      for (const field of fields) filled[field] ??= '';
      request.body = filled;
    }
    done();
  };
}

export const accountRoutes: FastifyPluginCallbackZod<{
  accounts: AccountService;
  sessions: SessionService;
  /** Told of each session signed in, so it works from its address while that address is throttled. */
  bearerThrottle?: BearerThrottle;
  /** PASSWORD_SIGN_IN=off: sign-in and sign-up with a password are refused (docs/adr/0033-single-sign-on.md). */
  passwordSignIn?: boolean;
}> = (app, { accounts, sessions, bearerThrottle, passwordSignIn = true }, done) => {
  const assertPasswords = () => {
    if (!passwordSignIn) throw new ForbiddenError('PASSWORD_SIGN_IN_OFF', SSO_MESSAGES.passwordSignInOff);
  };
  app.route({
    ...contract.account.register,
    // A closed sign-up is said before anything about the body (docs/design.md §11).
    onRequest: () =>
      Promise.resolve().then(() => {
        assertPasswords();
        accounts.assertSignUpOpen();
      }),
    preValidation: blankMissingFields(['email', 'password', 'confirmPassword', 'firstName', 'lastName']),
    handler: async (request, reply) => {
      const user = await accounts.register(request.body, request.ip);
      return reply.code(201).send({ message: ACCOUNT_MESSAGES.created, user });
    },
  });

  app.route({
    ...contract.account.login,
    preValidation: blankMissingFields(['username', 'password']),
    handler: async (request) => {
      assertPasswords();
      const signedIn = await accounts.login(request.body, request.ip);
      await bearerThrottle?.remember(signedIn.token, request.ip);
      return signedIn;
    },
  });

  app.route({
    ...contract.account.logout,
    handler: async (request, reply) => {
      await sessions.revoke(requireSession(request).sessionId);
      return reply.code(204).send();
    },
  });

  app.route({
    ...contract.account.me,
    handler: (request) => ({ user: toPublicUser(requireAuth(request).user) }),
  });

  app.route({
    ...contract.account.updateMe,
    preValidation: blankMissingFields(['firstName', 'lastName']),
    handler: async (request) => ({ user: await accounts.updateProfile(requireAuth(request), request.body) }),
  });

  app.route({
    ...contract.account.changePassword,
    preValidation: blankMissingFields(['currentPassword', 'newPassword', 'confirmPassword']),
    handler: async (request, reply) => {
      await accounts.changePassword(requireSession(request), request.body);
      return reply.code(204).send();
    },
  });
  done();
};
