import { z } from 'zod';

/*
 * James the assistant's wire shapes (docs/design.md §10): Ask James, Review saved plans and the
 * conversation kept per user. The server's routes, the web panel and any client read these; there is
 * no second copy.
 */

/** The longest question James takes, in characters. */
export const ASSISTANT_QUESTION_MAX = 2000;
/** The turns kept per user; older ones are dropped as new ones arrive. */
export const ASSISTANT_CONVERSATION_CAP = 200;

export const ASSISTANT_LANGUAGES = ['en', 'ko'] as const;
export const AssistantLanguageSchema = z.enum(ASSISTANT_LANGUAGES);
export type AssistantLanguage = z.infer<typeof AssistantLanguageSchema>;

/** One number an answer or a finding was built from, as measured (docs/adr/0005-measured-numbers-only.md). */
export const AssistantFigureSchema = z.object({
  label: z.string(),
  value: z.number(),
  unit: z.string().optional().describe('ms, %, req/s, users, s …; absent for a plain count'),
});
export type AssistantFigure = z.infer<typeof AssistantFigureSchema>;

/** A link into the web app: a plan's editor or a run's result. */
export const AssistantLinkSchema = z.object({
  label: z.string(),
  href: z
    .string()
    .describe('A path of the web app, e.g. /test-result/run_… or /create-test/url-input?planId=…'),
});
export type AssistantLink = z.infer<typeof AssistantLinkSchema>;

export const FINDING_KINDS = [
  'no_assertions',
  'last_validation_failed',
  'regression',
  'slowest_api',
  'most_failing_api',
  'saturation',
  'meaningless_setting',
  'never_ran',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export const FINDING_SEVERITIES = ['info', 'warning', 'problem'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** One thing Review saved plans found in the user's plans and runs. */
export const FindingSchema = z.object({
  kind: z.enum(FINDING_KINDS),
  severity: z.enum(FINDING_SEVERITIES),
  title: z.string(),
  detail: z.string(),
  figures: z.array(AssistantFigureSchema),
  links: z.array(AssistantLinkSchema),
});
export type Finding = z.infer<typeof FindingSchema>;

/** GET /api/assistant/review query. */
export const ReviewQuerySchema = z.object({
  language: AssistantLanguageSchema.optional().describe('The language of titles and details; en when absent'),
});
export type ReviewQuery = z.infer<typeof ReviewQuerySchema>;

/** GET /api/assistant/review: the findings, problems first. */
export const ReviewSchema = z.object({ findings: z.array(FindingSchema) });
export type Review = z.infer<typeof ReviewSchema>;

/** POST /api/assistant/ask body. */
export const AskRequestSchema = z.object({
  question: z
    .string()
    .trim()
    .min(1, 'Ask James a question')
    .max(ASSISTANT_QUESTION_MAX, `A question is at most ${ASSISTANT_QUESTION_MAX} characters`),
  plan_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A performance or functional plan the question is about'),
  language: AssistantLanguageSchema.optional().describe(
    'Answer in this language; else Korean for a question in Hangul',
  ),
});
export type AskRequest = z.infer<typeof AskRequestSchema>;

export const ASSISTANT_SOURCES = ['analyser', 'model'] as const;
export type AssistantSource = (typeof ASSISTANT_SOURCES)[number];

/** POST /api/assistant/ask answer. */
export const AskAnswerSchema = z.object({
  answer: z.string(),
  figures: z.array(AssistantFigureSchema),
  links: z.array(AssistantLinkSchema),
  source: z
    .enum(ASSISTANT_SOURCES)
    .describe("analyser: built from the user's data by rules; model: the configured language model's words"),
  understood: z.boolean().describe('False when neither the analyser nor a model could answer'),
  model: z.string().optional().describe('The model that answered (AQA_LLM_MODEL), for source model'),
  suggestions: z
    .array(z.string())
    .optional()
    .describe('Questions James can answer, when it did not understand'),
  findings: z
    .array(FindingSchema)
    .optional()
    .describe('For "review my plans": the findings the answer lists'),
});
export type AskAnswer = z.infer<typeof AskAnswerSchema>;

/** One question and its answer, as kept. */
export const ConversationTurnSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: AskAnswerSchema,
  asked_at: z.string().describe('ISO-8601 UTC'),
});
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;

/** GET /api/assistant/conversation: the user's turns, newest last. */
export const ConversationSchema = z.object({ turns: z.array(ConversationTurnSchema) });
export type Conversation = z.infer<typeof ConversationSchema>;

/** DELETE /api/assistant/conversation. */
export const ConversationClearedSchema = z.object({ deleted: z.number().int() });
export type ConversationCleared = z.infer<typeof ConversationClearedSchema>;
