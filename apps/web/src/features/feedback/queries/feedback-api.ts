import { contract } from '@aqa/contract';
import type { Feedback, FeedbackInput, FeedbackList } from '@aqa/plan';
import { call } from '@/lib/api';

/** POST /api/feedback. */
export function sendFeedback(input: FeedbackInput): Promise<Feedback> {
  return call(contract.feedback.send, { body: input });
}

/** GET /api/feedback: what the user sent, newest first. */
export function fetchFeedback(signal: AbortSignal): Promise<FeedbackList> {
  return call(contract.feedback.list, {}, { signal });
}
