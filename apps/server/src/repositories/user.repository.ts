import type { Db } from '../db/database';
import type { NewUserRow, UserRow, UserUpdate } from '../db/schema';
import { SessionRepository } from './session.repository';

/** The users table. Lookups by email always go through `email_normalized`. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(emailNormalized: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email_normalized', '=', emailNormalized)
      .executeTakeFirst();
  }

  /** Inserts the user; returns false when the email is already taken (unique index), true otherwise. */
  async insert(user: NewUserRow): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email_normalized').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async update(id: string, changes: UserUpdate): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * The password change: the new hash and the revocation of every other live session of the user,
   * in one transaction, so no old session outlives a changed password (docs/design.md §11).
   * Returns how many sessions were ended.
   */
  async setPasswordAndEndOtherSessions(
    id: string,
    passwordHash: string,
    keepSessionId: string,
    at: string,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: at })
        .where('id', '=', id)
        .execute();
      return new SessionRepository(trx).revokeAllForUserExcept(id, keepSessionId, at);
    });
  }

  /** Every account's id, email and email key, oldest first: the start-up check of their keys. */
  listEmails(): Promise<Pick<UserRow, 'id' | 'email' | 'email_normalized'>[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'email_normalized'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deletes the user; their sessions go with them (ON DELETE CASCADE). */
  async deleteByEmail(emailNormalized: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('users')
      .where('email_normalized', '=', emailNormalized)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
