import { z } from 'zod';
import { PhraseSchema } from './phrases/phrase';
import { oneLine, wholeNumber } from './strict-input';

/*
 * Messages (docs/reference/02-running.md §2 "Messages"): one notification a user gets when one of
 * their runs ends or breaks a threshold, with a link to its result. The server's routes, the web
 * screen and the sidebar's unread count read these shapes; there is no second copy.
 */

/** How the run ended; `threshold_failed` is a completed load run that broke one of its plan's thresholds. */
export const MESSAGE_KINDS = ['completed', 'failed', 'stopped', 'interrupted', 'threshold_failed'] as const;
export const MessageKindSchema = z.enum(MESSAGE_KINDS);
export type MessageKind = z.infer<typeof MessageKindSchema>;

/** Which kind of test the run was: a load test, a functional API test, or a UI test. */
export const MESSAGE_TEST_TYPES = ['load', 'api', 'ui'] as const;
export const MessageTestTypeSchema = z.enum(MESSAGE_TEST_TYPES);
export type MessageTestType = z.infer<typeof MessageTestTypeSchema>;

/** Messages per GET /api/messages when the caller names no limit, and the most one call returns. */
export const MESSAGES_DEFAULT_LIMIT = 50;
export const MESSAGES_MAX_LIMIT = 200;
/** Ids one POST /api/messages/read may name. */
export const MESSAGES_READ_MAX_IDS = 500;
/** How often the web app asks for the unread count while its tab is visible (docs/reference/02-running.md §9). */
export const MESSAGES_POLL_MS = 15_000;

export const MessageSchema = z.object({
  id: z.string(),
  kind: MessageKindSchema,
  test_type: MessageTestTypeSchema,
  /** The plan's or test's name, as the run had it. */
  name: z.string(),
  /** "Checkout load test completed". */
  title: z.string(),
  /** One line with the run's measured figures, and what broke or why it ended. */
  body: z.string(),
  /** The body's parts (joined by " · ") as codes and parameters; absent for messages stored before them. */
  body_phrases: z.array(PhraseSchema).optional(),
  /** The web app's path of the result: /test-result/{id} or /functional-test-result/{id}. */
  link: z.string(),
  run_id: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Message = z.infer<typeof MessageSchema>;

/** GET /api/messages: newest first, and how many of all the user's messages are unread. */
export const MessageListSchema = z.object({
  messages: z.array(MessageSchema),
  unread: z.number().int().nonnegative(),
});
export type MessageList = z.infer<typeof MessageListSchema>;

export const MessageListQuerySchema = z.object({
  limit: wholeNumber(`Must be a whole number from 0 to ${MESSAGES_MAX_LIMIT}`, 0, MESSAGES_MAX_LIMIT)
    .optional()
    .describe(
      `Messages to return, newest first (${MESSAGES_DEFAULT_LIMIT} when absent; 0 for the unread count alone)`,
    ),
});

/** POST /api/messages/read: the messages to mark read; none named marks all of them. */
export const MarkMessagesReadSchema = z.object({
  ids: z
    .array(oneLine('Message id').min(1).max(100))
    .max(MESSAGES_READ_MAX_IDS, `Name at most ${MESSAGES_READ_MAX_IDS} messages at once`)
    .optional()
    .describe(
      "The caller's message ids; absent marks all read. Ids that are not the caller's change nothing",
    ),
});
export type MarkMessagesRead = z.infer<typeof MarkMessagesReadSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;
