import type { Db } from '../db/database';
import type { NewUserRow, UserRow, UserUpdate } from '../db/schema';

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

  /** Deletes the user; their sessions go with them (ON DELETE CASCADE). */
  async deleteByEmail(emailNormalized: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('users')
      .where('email_normalized', '=', emailNormalized)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
