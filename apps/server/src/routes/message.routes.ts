import {
  MarkMessagesReadSchema,
  MessageListQuerySchema,
  MessageListSchema,
  UnreadCountSchema,
} from '@aqa/plan';
import type { preValidationHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { MessageService } from '../services/message.service';
import { SCOPED_ERRORS } from './route-common';
import { UserEmailQuerySchema } from './run.schemas';

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
  app.get(
    '/api/messages',
    {
      schema: {
        tags: ['messages'],
        summary: "The caller's messages about their ended runs, newest first, and how many are unread",
        description:
          'One message per run of the caller that ended (completed, failed, stopped, interrupted) or broke a threshold of its plan, with the measured figures and the link of its result. `limit=0` answers the unread count alone.',
        querystring: UserEmailQuerySchema.extend(MessageListQuerySchema.shape),
        response: { 200: MessageListSchema, ...SCOPED_ERRORS },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return messages.list(requireAuth(request).user, request.query.limit);
    },
  );

  app.post(
    '/api/messages/read',
    {
      schema: {
        tags: ['messages'],
        summary: 'Mark messages read: those named in `ids`, or all of them; answers the unread count',
        description: "Ids that are not the caller's messages change nothing.",
        querystring: UserEmailQuerySchema,
        body: MarkMessagesReadSchema,
        response: { 200: UnreadCountSchema, ...SCOPED_ERRORS },
      },
      preValidation: emptyBodyIsAll,
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return messages.markRead(requireAuth(request).user, request.body.ids);
    },
  );

  done();
};
