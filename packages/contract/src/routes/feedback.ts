import { FeedbackInputSchema, FeedbackListSchema, FeedbackSchema } from '@aqa/plan';
import { defineRoute, SCOPED_ERRORS, SCOPED_ERRORS_WITH_404, UserEmailQuerySchema } from '../route';

const tags = ['feedback'];

/** Feedback (docs/reference/02-running.md §2 "Feedback", §7): sent by the caller, listed to them only. */
export const feedback = {
  send: defineRoute({
    method: 'POST',
    url: '/api/feedback',
    schema: {
      tags,
      summary: 'Send feedback: a bug, an idea or a question, with the page and run it is about',
      description: "A `run_id` that is not one of the caller's runs (load or functional) answers 404.",
      querystring: UserEmailQuerySchema,
      body: FeedbackInputSchema,
      response: { 201: FeedbackSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/feedback',
    schema: {
      tags,
      summary: 'The feedback the caller sent, newest first',
      querystring: UserEmailQuerySchema,
      response: { 200: FeedbackListSchema, ...SCOPED_ERRORS },
    },
  }),
};
