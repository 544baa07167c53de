import type { Db } from '../db/database';
import type { FeedbackRow, NewFeedbackRow } from '../db/schema';

/** The feedback table (docs/reference/02-running.md §2 "Feedback"): each user reads only their own. */
export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  insert(feedback: NewFeedbackRow): Promise<FeedbackRow> {
    return this.db.insertInto('feedback').values(feedback).returningAll().executeTakeFirstOrThrow();
  }

  /** Newest first; ties broken by id so the order is stable. */
  listForUser(userId: string): Promise<FeedbackRow[]> {
    return this.db
      .selectFrom('feedback')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Whether the user has a run (load or functional) with this id. */
  async userHasRun(userId: string, runId: string): Promise<boolean> {
    const load = await this.db
      .selectFrom('runs')
      .select('id')
      .where('id', '=', runId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (load !== undefined) return true;
    const functional = await this.db
      .selectFrom('functional_runs')
      .select('id')
      .where('id', '=', runId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return functional !== undefined;
  }
}
