import {
  ApiTokenCreatedSchema,
  ApiTokenCreateSchema,
  ApiTokenListSchema,
  ErrorResponseSchema,
} from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession } from '../auth/authenticate';
import type { ApiTokenService } from '../services/token.service';

const TokenIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
const NoContent = z.undefined().describe('No content');
const SESSION_ONLY = 'Needs a signed-in session: an API token gets 403 SESSION_REQUIRED.';
const REFUSED_TO_TOKENS = ErrorResponseSchema.describe('Called with an API token (SESSION_REQUIRED)');

/**
 * API tokens for CI (docs/reference/01-authoring.md §7, docs/adr/0012-api-tokens-and-sessions.md).
 * These three are managed from a signed-in session only (SESSION_ONLY_API_ROUTES in src/auth).
 */
export const tokenRoutes: FastifyPluginCallbackZod<{ apiTokens: ApiTokenService }> = (
  app,
  { apiTokens },
  done,
) => {
  app.post(
    '/api/tokens',
    {
      schema: {
        tags: ['account'],
        summary: 'Create an API token for CI; the token is in this answer only',
        description: SESSION_ONLY,
        body: ApiTokenCreateSchema,
        response: {
          201: ApiTokenCreatedSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          403: REFUSED_TO_TOKENS,
          409: ErrorResponseSchema.describe('The user holds the most tokens allowed (TOO_MANY_API_TOKENS)'),
        },
      },
    },
    async (request, reply) => {
      const created = await apiTokens.create(requireSession(request).user.id, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/tokens',
    {
      schema: {
        tags: ['account'],
        summary: "The signed-in user's API tokens, newest first (never the tokens themselves)",
        description: SESSION_ONLY,
        response: { 200: ApiTokenListSchema, 401: ErrorResponseSchema, 403: REFUSED_TO_TOKENS },
      },
    },
    (request) => apiTokens.list(requireSession(request).user.id),
  );

  app.delete(
    '/api/tokens/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke an API token at once',
        description: `${SESSION_ONLY} Another user's token answers 404 like an unknown one.`,
        params: TokenIdParamsSchema,
        response: {
          204: NoContent,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          403: REFUSED_TO_TOKENS,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      await apiTokens.revoke(requireSession(request).user.id, request.params.id);
      return reply.code(204).send();
    },
  );
  done();
};
