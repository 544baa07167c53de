import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireSession } from '../auth/authenticate';
import type { ApiTokenService } from '../services/token.service';

/**
 * API tokens for CI (docs/reference/01-authoring.md §7, docs/adr/0012-api-tokens-and-sessions.md).
 * These three are managed from a signed-in session only (SESSION_ONLY_API_ROUTES in src/auth).
 */
export const tokenRoutes: FastifyPluginCallbackZod<{ apiTokens: ApiTokenService }> = (
  app,
  { apiTokens },
  done,
) => {
  app.route({
    ...contract.tokens.create,
    handler: async (request, reply) => {
      const created = await apiTokens.create(requireSession(request).user.id, request.body);
      return reply.code(201).send(created);
    },
  });

  app.route({
    ...contract.tokens.list,
    handler: (request) => apiTokens.list(requireSession(request).user.id),
  });

  app.route({
    ...contract.tokens.revoke,
    handler: async (request, reply) => {
      await apiTokens.revoke(requireSession(request).user.id, request.params.id);
      return reply.code(204).send();
    },
  });
  done();
};
