import type { Db } from '../db/database';
import type { AuditLogRow } from '../db/schema';

/** The audit_log table (docs/adr/0034-audit-log.md). */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AuditLogRow): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /**
   * The owner's entries, newest first (ids sort by time: AuditService's newAuditId), those older than the
   * entry `before` when given.
   */
  list(ownerId: string, limit: number, before?: string): Promise<AuditLogRow[]> {
    let query = this.db.selectFrom('audit_log').selectAll().where('owner_id', '=', ownerId);
    if (before !== undefined) query = query.where('id', '<', before);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  /** Deletes entries older than `before`; answers how many. */
  async deleteBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
