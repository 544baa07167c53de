import { contract } from '@aqa/contract';
import type { Feedback, FeedbackInput } from '@aqa/plan';
import { call } from '@/lib/api';

/** POST /api/feedback. */
export function sendFeedback(input: FeedbackInput): Promise<Feedback> {
  return call(contract.feedback.send, { body: input });
}
