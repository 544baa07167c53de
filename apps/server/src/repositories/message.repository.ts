import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { MessageRow, NewMessageRow } from '../db/schema';

/**
 * The messages table (docs/reference/02-running.md §2 "Messages"). Every read and write names the
 * owner, so another user's message is never read or marked.
 */
export class MessageRepository {
  constructor(private readonly db: Db) {}

  /** Stores the message; false when its run already has one (a run gets one message, the first). */
  async insert(message: NewMessageRow): Promise<boolean> {
    const result = await this.db
      .insertInto('messages')
      .values(message)
      .onConflict((c) => c.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Newest first; messages of the same instant in the order they were written, newest first: SQLite's
   * rowid, which the PostgreSQL rendering of migration 0011 makes an identity column of the same name.
   */
  listForUser(userId: string, limit: number): Promise<MessageRow[]> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy(sql`rowid`, 'desc')
      .limit(limit)
      .execute();
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks the user's unread messages read: those named (ids not the user's change nothing), or all. */
  async markRead(userId: string, at: string, ids?: readonly string[]): Promise<void> {
    if (ids?.length === 0) return;
    let update = this.db
      .updateTable('messages')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (ids !== undefined) update = update.where('id', 'in', [...ids]);
    await update.execute();
  }
}
