import type { Db } from '../db/database';
import type { NewSessionRow, SessionRow } from '../db/schema';

/** The sessions table. Sessions are found by the sha256 of their token, never by the token. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(session: NewSessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async revoke(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of the user except `keepSessionId`; returns how many. */
  async revokeAllForUserExcept(userId: string, keepSessionId: string, at: string): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('id', '!=', keepSessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Deletes sessions that ended (expired or revoked) before `endedBefore`. Recently ended ones are
   * kept so their token still gets "your session has expired" rather than "not signed in".
   */
  async deleteEndedBefore(endedBefore: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', endedBefore), eb('revoked_at', '<', endedBefore)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
