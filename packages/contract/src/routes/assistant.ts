import {
  AskAnswerSchema,
  AskRequestSchema,
  ConversationClearedSchema,
  ConversationSchema,
  ReviewQuerySchema,
  ReviewSchema,
} from '@aqa/plan';
import { defineRoute, SCOPED_ERRORS, SCOPED_ERRORS_WITH_404, UserEmailQuerySchema } from '../route';

const AskBodySchema = AskRequestSchema.extend({
  user_email: UserEmailQuerySchema.shape.user_email,
});

const tags = ['assistant'];

/** James the assistant (docs/design.md §10; docs/reference/02-running.md §7): always the caller's own data. */
export const assistant = {
  review: defineRoute({
    method: 'GET',
    url: '/api/assistant/review',
    schema: {
      tags,
      summary:
        "Review saved plans: findings from the caller's plans and runs, each with its figures and links",
      querystring: ReviewQuerySchema.extend(UserEmailQuerySchema.shape),
      response: { 200: ReviewSchema, ...SCOPED_ERRORS },
    },
  }),
  ask: defineRoute({
    method: 'POST',
    url: '/api/assistant/ask',
    schema: {
      tags,
      summary: 'Ask James a question about your tests, in English or Korean',
      description:
        "Answered by the analyser from the caller's own runs (source analyser), or, for a question it does not understand, by the configured OpenAI-compatible model (source model); with no model, understood is false and suggestions lists what James can answer. A plan_id that is not the caller's is 404. Each question and answer is kept in the caller's conversation.",
      body: AskBodySchema,
      response: { 200: AskAnswerSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  conversation: defineRoute({
    method: 'GET',
    url: '/api/assistant/conversation',
    schema: {
      tags,
      summary: "The caller's questions to James and the answers, newest last",
      querystring: UserEmailQuerySchema,
      response: { 200: ConversationSchema, ...SCOPED_ERRORS },
    },
  }),
  clearConversation: defineRoute({
    method: 'DELETE',
    url: '/api/assistant/conversation',
    schema: {
      tags,
      summary: "Clear the caller's conversation with James",
      querystring: UserEmailQuerySchema,
      response: { 200: ConversationClearedSchema, ...SCOPED_ERRORS },
    },
  }),
};
