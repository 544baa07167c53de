import type { AskAnswer, AskRequest, AssistantLanguage, Conversation, Review } from '@aqa/plan';
import { contract } from '@aqa/contract';
import { call } from '@/lib/api';

/*
 * James's calls (docs/reference/02-running.md §7): Review saved plans, Ask James and the conversation kept
 * per user. Answers are typed by the contract's routes and not parsed again here: the server checks each
 * against the same schema before it leaves (docs/contract.md "Answers").
 */

const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /api/assistant/review: findings from the user's plans and runs, problems first. */
export function fetchReview(language: AssistantLanguage, signal?: AbortSignal): Promise<Review> {
  return call(contract.assistant.review, { query: { language } }, signalOf(signal));
}

/** POST /api/assistant/ask: an answer from the analyser (or the configured model), with its figures. */
export function askJames(request: AskRequest, signal?: AbortSignal): Promise<AskAnswer> {
  // The analyser reads every run of the user: give it longer than an ordinary call.
  return call(contract.assistant.ask, { body: request }, { ...signalOf(signal), timeoutMs: 120_000 });
}

/** GET /api/assistant/conversation: the user's questions and answers, newest last. */
export function fetchConversation(signal?: AbortSignal): Promise<Conversation> {
  return call(contract.assistant.conversation, {}, signalOf(signal));
}

/** DELETE /api/assistant/conversation. */
export async function clearConversation(): Promise<void> {
  await call(contract.assistant.clearConversation);
}
