import { z } from 'zod';
import { multiLine, oneLine } from './strict-input';

/*
 * Feedback (docs/reference/02-running.md §2 "Feedback"): what a user sends the team from the Feedback
 * screen, stored with the user and the time, and listed back to them. One shape for the route, the
 * web form and its list.
 */

export const FEEDBACK_KINDS = ['bug', 'idea', 'question'] as const;
export const FeedbackKindSchema = z.enum(FEEDBACK_KINDS, {
  error: () => 'Choose what this is: bug, idea or question',
});
export type FeedbackKind = z.infer<typeof FeedbackKindSchema>;

export const FEEDBACK_MESSAGE_MAX = 5000;
export const FEEDBACK_PAGE_MAX = 500;

export const FEEDBACK_ERRORS = {
  messageRequired: 'Write your feedback',
  messageTooLong: `Feedback can be at most ${FEEDBACK_MESSAGE_MAX} characters`,
  pageTooLong: `The page can be at most ${FEEDBACK_PAGE_MAX} characters`,
  runNotFound: 'No test result of yours has this id',
} as const;

/** POST /api/feedback. `page` is the app page it is about; `run_id` one of the user's runs (load or functional). */
export const FeedbackInputSchema = z.object({
  kind: FeedbackKindSchema,
  message: multiLine('Feedback', FEEDBACK_ERRORS.messageRequired)
    .trim()
    .min(1, FEEDBACK_ERRORS.messageRequired)
    .max(FEEDBACK_MESSAGE_MAX, FEEDBACK_ERRORS.messageTooLong),
  page: oneLine('Page').trim().max(FEEDBACK_PAGE_MAX, FEEDBACK_ERRORS.pageTooLong).optional(),
  run_id: oneLine('Run id')
    .trim()
    .max(100)
    .optional()
    .describe("One of the caller's runs, load or functional"),
});
export type FeedbackInput = z.input<typeof FeedbackInputSchema>;

export const FeedbackSchema = z.object({
  id: z.string(),
  kind: FeedbackKindSchema,
  message: z.string(),
  page: z.string().nullable(),
  run_id: z.string().nullable(),
  created_at: z.string(),
});
export type Feedback = z.infer<typeof FeedbackSchema>;

/** GET /api/feedback: what the user sent, newest first. */
export const FeedbackListSchema = z.object({ feedback: z.array(FeedbackSchema) });
export type FeedbackList = z.infer<typeof FeedbackListSchema>;
