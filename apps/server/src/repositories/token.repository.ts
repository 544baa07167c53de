import type { Db } from '../db/database';
import { lockUserForTransaction } from '../db/dialect';
import type { ApiTokenRow, NewApiTokenRow } from '../db/schema';

/** The api_tokens table. Tokens are found by the sha256 of their token, never by the token. */
export class ApiTokenRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the token unless its user already holds `limit` tokens that are not revoked; false then.
   * Counted and written in one transaction that holds the user's lock (SQLite runs writing transactions
   * one at a time; PostgreSQL locks the user's row), so two creations at once cannot both take the last place.
   */
  insertWithinLimit(row: NewApiTokenRow, limit: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockUserForTransaction(trx, row.user_id);
      const { n } = await trx
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', row.user_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(n) >= limit) return false;
      await trx.insertInto('api_tokens').values(row).execute();
      return true;
    });
  }

  findByTokenHash(tokenHash: string): Promise<ApiTokenRow | undefined> {
    return this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** The user's tokens that are not revoked (live and expired), newest first. */
  listForUser(userId: string): Promise<ApiTokenRow[]> {
    return this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Revokes the user's token `id`; false when the user has no such token that is not already revoked. */
  async revoke(userId: string, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes tokens revoked before `revokedBefore`; until then they get "revoked" rather than "not valid". */
  async deleteRevokedBefore(revokedBefore: string): Promise<number> {
    const result = await this.db
      .deleteFrom('api_tokens')
      .where('revoked_at', '<', revokedBefore)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
