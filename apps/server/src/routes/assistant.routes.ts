import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { AssistantService } from '../services/assistant/assistant.service';

/** James the assistant (docs/design.md §10; docs/reference/02-running.md §7): always the caller's own data. */
export const assistantRoutes: FastifyPluginCallbackZod<{ assistant: AssistantService }> = (
  app,
  { assistant },
  done,
) => {
  app.route({
    ...contract.assistant.review,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return assistant.review(requireAuth(request).user, request.query.language ?? 'en');
    },
  });

  app.route({
    ...contract.assistant.ask,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      const { user_email: _email, ...question } = request.body;
      return assistant.ask(requireAuth(request).user, question);
    },
  });

  app.route({
    ...contract.assistant.conversation,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return assistant.conversation(requireAuth(request).user);
    },
  });

  app.route({
    ...contract.assistant.clearConversation,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return assistant.clear(requireAuth(request).user);
    },
  });
  done();
};
