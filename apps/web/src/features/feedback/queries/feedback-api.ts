import type { Feedback, FeedbackInput, FeedbackList } from '@aqa/plan';
import { api } from '@/lib/api';

/** POST /api/feedback. */
export function sendFeedback(input: FeedbackInput): Promise<Feedback> {
  return api.post<Feedback>('/feedback', input);
}

/** GET /api/feedback: what the user sent, newest first. */
export function fetchFeedback(signal: AbortSignal): Promise<FeedbackList> {
  return api.get<FeedbackList>('/feedback', { signal });
}
