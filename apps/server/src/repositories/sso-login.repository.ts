import type { Db } from '../db/database';
import type { SsoLoginRow } from '../db/schema';

/** The sso_logins table: sign-ins under way at the provider (docs/adr/0033-single-sign-on.md). */
export class SsoLoginRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SsoLoginRow): Promise<void> {
    await this.db.insertInto('sso_logins').values(row).execute();
  }

  /**
   * The sign-in of this state, deleted as it is read, so a callback can be used once; undefined when
   * there is none (never started, or taken already).
   */
  async take(stateHash: string): Promise<SsoLoginRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sso_logins')
        .selectAll()
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const deleted = await trx
        .deleteFrom('sso_logins')
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1 ? row : undefined;
    });
  }

  /** Forgets sign-ins started before `before` that were never finished. */
  async deleteStartedBefore(before: string): Promise<void> {
    await this.db.deleteFrom('sso_logins').where('created_at', '<', before).execute();
  }
}
