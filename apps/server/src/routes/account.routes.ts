import {
  CurrentUserResponseSchema,
  ErrorResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  PasswordChangeSchema,
  ProfileUpdateSchema,
  RegisterResponseSchema,
  RegistrationSchema,
} from '@aqa/plan';
import type { preValidationHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, requireSession } from '../auth/authenticate';
import type { BearerThrottle } from '../auth/bearer-throttle';
import { toPublicUser } from '../services/account-user';
import { ACCOUNT_MESSAGES, type AccountService } from '../services/account.service';
import type { SessionService } from '../services/session.service';

const NoContent = z.undefined().describe('No content');

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
}> = (app, { accounts, sessions, bearerThrottle }, done) => {
  app.post(
    '/api/register',
    {
      schema: {
        tags: ['account'],
        summary: 'Create an account; the email is the username',
        body: RegistrationSchema,
        response: {
          201: RegisterResponseSchema,
          400: ErrorResponseSchema,
          403: ErrorResponseSchema.describe('Sign-up is turned off on this server (SIGN_UP_CLOSED)'),
          409: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
      // A closed sign-up is said before anything about the body (docs/design.md §11).
      onRequest: () => Promise.resolve().then(() => accounts.assertSignUpOpen()),
      preValidation: blankMissingFields(['email', 'password', 'confirmPassword', 'firstName', 'lastName']),
    },
    async (request, reply) => {
      const user = await accounts.register(request.body, request.ip);
      return reply.code(201).send({ message: ACCOUNT_MESSAGES.created, user });
    },
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign in with email (as username) and password; returns a bearer token',
        body: LoginRequestSchema,
        response: {
          200: LoginResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
      preValidation: blankMissingFields(['username', 'password']),
    },
    async (request) => {
      const signedIn = await accounts.login(request.body, request.ip);
      await bearerThrottle?.remember(signedIn.token, request.ip);
      return signedIn;
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out: revokes the presented token',
        response: { 204: NoContent, 401: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      await sessions.revoke(requireSession(request).sessionId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user',
        response: { 200: CurrentUserResponseSchema, 401: ErrorResponseSchema },
      },
    },
    (request) => ({ user: toPublicUser(requireAuth(request).user) }),
  );

  app.put(
    '/api/me',
    {
      schema: {
        tags: ['account'],
        summary: "Update the signed-in user's profile",
        body: ProfileUpdateSchema,
        response: { 200: CurrentUserResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
      preValidation: blankMissingFields(['firstName', 'lastName']),
    },
    async (request) => ({ user: await accounts.updateProfile(requireAuth(request), request.body) }),
  );

  app.post(
    '/api/me/password',
    {
      schema: {
        tags: ['account'],
        summary: 'Change the password; signs out every other session of the user',
        body: PasswordChangeSchema,
        response: {
          204: NoContent,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
      preValidation: blankMissingFields(['currentPassword', 'newPassword', 'confirmPassword']),
    },
    async (request, reply) => {
      await accounts.changePassword(requireSession(request), request.body);
      return reply.code(204).send();
    },
  );
  done();
};
