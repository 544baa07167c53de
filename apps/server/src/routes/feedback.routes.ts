import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { FeedbackService } from '../services/feedback.service';

/** Feedback (docs/reference/02-running.md §2 "Feedback", §7): sent by the caller, listed to them only. */
export const feedbackRoutes: FastifyPluginCallbackZod<{ feedback: FeedbackService }> = (
  app,
  { feedback },
  done,
) => {
  app.route({
    ...contract.feedback.send,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const sent = await feedback.send(requireAuth(request).user, request.body);
      return reply.code(201).send(sent);
    },
  });

  app.route({
    ...contract.feedback.list,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return feedback.list(requireAuth(request).user);
    },
  });

  done();
};
