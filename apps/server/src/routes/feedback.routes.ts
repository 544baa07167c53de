import { FeedbackInputSchema, FeedbackListSchema, FeedbackSchema } from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { FeedbackService } from '../services/feedback.service';
import { SCOPED_ERRORS, SCOPED_ERRORS_WITH_404 } from './route-common';
import { UserEmailQuerySchema } from './run.schemas';

/** Feedback (docs/reference/02-running.md §2 "Feedback", §7): sent by the caller, listed to them only. */
export const feedbackRoutes: FastifyPluginCallbackZod<{ feedback: FeedbackService }> = (
  app,
  { feedback },
  done,
) => {
  app.post(
    '/api/feedback',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Send feedback: a bug, an idea or a question, with the page and run it is about',
        description: "A `run_id` that is not one of the caller's runs (load or functional) answers 404.",
        querystring: UserEmailQuerySchema,
        body: FeedbackInputSchema,
        response: { 201: FeedbackSchema, ...SCOPED_ERRORS_WITH_404 },
      },
    },
    async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const sent = await feedback.send(requireAuth(request).user, request.body);
      return reply.code(201).send(sent);
    },
  );

  app.get(
    '/api/feedback',
    {
      schema: {
        tags: ['feedback'],
        summary: 'The feedback the caller sent, newest first',
        querystring: UserEmailQuerySchema,
        response: { 200: FeedbackListSchema, ...SCOPED_ERRORS },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return feedback.list(requireAuth(request).user);
    },
  );

  done();
};
