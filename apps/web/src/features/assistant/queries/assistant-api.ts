import {
  AskAnswerSchema,
  ConversationSchema,
  ReviewSchema,
  type AskAnswer,
  type AskRequest,
  type AssistantLanguage,
  type Conversation,
  type Review,
} from '@aqa/plan';
import { contract } from '@aqa/contract';
import { call } from '@/lib/api';

/*
 * James's calls (docs/reference/02-running.md §7): Review saved plans, Ask James and the conversation kept
 * per user. Answers are typed by the contract's routes and read again with their schemas, so a changed shape
 * fails loudly here.
 */

const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /api/assistant/review: findings from the user's plans and runs, problems first. */
export async function fetchReview(language: AssistantLanguage, signal?: AbortSignal): Promise<Review> {
  const answer = await call(contract.assistant.review, { query: { language } }, signalOf(signal));
  return ReviewSchema.parse(answer);
}

/** POST /api/assistant/ask: an answer from the analyser (or the configured model), with its figures. */
export async function askJames(request: AskRequest, signal?: AbortSignal): Promise<AskAnswer> {
  // The analyser reads every run of the user: give it longer than an ordinary call.
  const answer = await call(
    contract.assistant.ask,
    { body: request },
    {
      ...signalOf(signal),
      timeoutMs: 120_000,
    },
  );
  return AskAnswerSchema.parse(answer);
}

/** GET /api/assistant/conversation: the user's questions and answers, newest last. */
export async function fetchConversation(signal?: AbortSignal): Promise<Conversation> {
  return ConversationSchema.parse(await call(contract.assistant.conversation, {}, signalOf(signal)));
}

/** DELETE /api/assistant/conversation. */
export async function clearConversation(): Promise<void> {
  await call(contract.assistant.clearConversation);
}
