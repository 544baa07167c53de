import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { MessageRow, NewMessageRow } from '../db/schema';

/**
 * The messages table (docs/reference/02-running.md §2 "Messages"). A message belongs to the workspace
 * of its run and every member reads it; each marks it read on their own (message_reads, migration 0028,
 * docs/adr/0035-workspaces-and-roles.md). Every read names the workspace, so another's message is never
 * read or marked.
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
   * The workspace's messages with when this member read each, newest first; messages of the same instant
   * in the order they were written, newest first: SQLite's rowid, which the PostgreSQL rendering of
   * migration 0011 makes an identity column of the same name.
   */
  list(workspaceId: string, readerId: string, limit: number): Promise<MessageRow[]> {
    return (
      this.db
        .selectFrom('messages as m')
        .leftJoin('message_reads as r', (join) =>
          join.onRef('r.message_id', '=', 'm.id').on('r.user_id', '=', readerId),
        )
        // m.read_at is not read: since migration 0028 each member's reading is in message_reads.
        .select([
          'm.id',
          'm.user_id',
          'm.workspace_id',
          'm.kind',
          'm.test_type',
          'm.name',
          'm.title',
          'm.body',
          'm.body_phrases',
          'm.run_id',
          'm.functional_run_id',
          'm.created_at',
          'r.read_at',
        ])
        .where('m.workspace_id', '=', workspaceId)
        .orderBy('m.created_at', 'desc')
        .orderBy(sql`m.rowid`, 'desc')
        .limit(limit)
        .execute()
    );
  }

  async unreadCount(workspaceId: string, readerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages as m')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.workspace_id', '=', workspaceId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('message_reads as r')
              .select('r.message_id')
              .whereRef('r.message_id', '=', 'm.id')
              .where('r.user_id', '=', readerId),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks the workspace's messages read for this member: those named (ids not the workspace's change nothing), or all. */
  async markRead(workspaceId: string, readerId: string, at: string, ids?: readonly string[]): Promise<void> {
    if (ids?.length === 0) return;
    let unread = this.db
      .selectFrom('messages as m')
      .select([
        'm.id as message_id',
        sql<string>`${readerId}`.as('user_id'),
        sql<string>`${at}`.as('read_at'),
      ])
      .where('m.workspace_id', '=', workspaceId);
    if (ids !== undefined) unread = unread.where('m.id', 'in', [...ids]);
    await this.db
      .insertInto('message_reads')
      .columns(['message_id', 'user_id', 'read_at'])
      .expression(unread)
      .onConflict((c) => c.columns(['message_id', 'user_id']).doNothing())
      .execute();
  }
}
