import { randomBytes } from 'node:crypto';
import {
  FEEDBACK_ERRORS,
  type Feedback,
  type FeedbackInputSchema,
  type FeedbackKind,
  type FeedbackList,
} from '@aqa/plan';
import type { z } from 'zod';
import { type Clock, isoAt } from '../clock';
import type { FeedbackRow } from '../db/schema';
import { NotFoundError } from '../errors';
import type { FeedbackRepository } from '../repositories/feedback.repository';
import type { AccountUser } from './account-user';

type FeedbackSent = z.output<typeof FeedbackInputSchema>;

function rowToFeedback(row: FeedbackRow): Feedback {
  return {
    id: row.id,
    kind: row.kind as FeedbackKind,
    message: row.message,
    page: row.page,
    run_id: row.run_id,
    created_at: row.created_at,
  };
}

/**
 * Feedback (docs/reference/02-running.md §2 "Feedback"): stored with its sender and the time, and
 * listed back to them only. A run it names must be one of the sender's (load or functional); another
 * user's run id is not found, as everywhere (docs/reference/02-running.md §6).
 */
export class FeedbackService {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly now: Clock,
  ) {}

  async send(user: AccountUser, sent: FeedbackSent): Promise<Feedback> {
    const page = sent.page === undefined || sent.page === '' ? null : sent.page;
    const runId = sent.run_id === undefined || sent.run_id === '' ? null : sent.run_id;
    if (runId !== null && !(await this.feedback.userHasRun(user.id, runId)))
      throw new NotFoundError('RUN_NOT_FOUND', FEEDBACK_ERRORS.runNotFound);
    const row = await this.feedback.insert({
      id: `fb_${randomBytes(12).toString('base64url')}`,
      user_id: user.id,
      kind: sent.kind,
      message: sent.message,
      page,
      run_id: runId,
      created_at: isoAt(this.now()),
    });
    return rowToFeedback(row);
  }

  async list(user: AccountUser): Promise<FeedbackList> {
    return { feedback: (await this.feedback.listForUser(user.id)).map(rowToFeedback) };
  }
}
