import {
  MarkMessagesReadSchema,
  MessageListQuerySchema,
  MessageListSchema,
  UnreadCountSchema,
} from '@aqa/plan';
import { defineRoute, SCOPED_ERRORS, UserEmailQuerySchema } from '../route';

const tags = ['messages'];

/** Messages (docs/reference/02-running.md §2 "Messages", §7): the caller's own, newest first. */
export const messages = {
  list: defineRoute({
    method: 'GET',
    url: '/api/messages',
    schema: {
      tags,
      summary: "The caller's messages about their ended runs, newest first, and how many are unread",
      description:
        'One message per run of the caller that ended (completed, failed, stopped, interrupted) or broke a threshold of its plan, with the measured figures and the link of its result. `limit=0` answers the unread count alone.',
      querystring: UserEmailQuerySchema.extend(MessageListQuerySchema.shape),
      response: { 200: MessageListSchema, ...SCOPED_ERRORS },
    },
  }),
  markRead: defineRoute({
    method: 'POST',
    url: '/api/messages/read',
    schema: {
      tags,
      summary: 'Mark messages read: those named in `ids`, or all of them; answers the unread count',
      description: "Ids that are not the caller's messages change nothing.",
      querystring: UserEmailQuerySchema,
      body: MarkMessagesReadSchema,
      response: { 200: UnreadCountSchema, ...SCOPED_ERRORS },
    },
  }),
};
