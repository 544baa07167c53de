import type { preValidationHookHandler } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { MessageService } from '../services/message.service';

/** "Mark all read" may be sent with no body at all: that is the empty body, which marks all. */
const emptyBodyIsAll: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
};

/** Messages (docs/reference/02-running.md §2 "Messages", §7): the caller's own, newest first. */
export const messageRoutes: FastifyPluginCallbackZod<{ messages: MessageService }> = (
  app,
  { messages },
  done,
) => {
  app.route({
    ...contract.messages.list,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return messages.list(requireAuth(request).user, request.query.limit);
    },
  });

  app.route({
    ...contract.messages.markRead,
    preValidation: emptyBodyIsAll,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return messages.markRead(requireAuth(request).user, request.body.ids);
    },
  });

  done();
};
