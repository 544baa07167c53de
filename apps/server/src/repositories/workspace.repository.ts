import type { Db } from '../db/database';
import type { WorkspaceInviteRow, WorkspaceMemberRow, WorkspaceRow } from '../db/schema';

/** A member with the account's address and name, as the members list shows them. */
export interface MemberView extends WorkspaceMemberRow {
  email: string;
  first_name: string;
  last_name: string;
}

/** The tables whose rows a team workspace owns and that go with it (migration 0028). */
const OWNED_TABLES = [
  'notification_plan_channels',
  'notification_deliveries',
  'notification_channels',
  'schedules',
  'assistant_turns',
  'messages',
  'functional_runs',
  'functional_plans',
  'runs',
  'plans',
] as const;

/**
 * Team workspaces and their members (docs/adr/0035-workspaces-and-roles.md). A personal workspace has
 * no row here: its id is its user's and its one member, the owner, is that user.
 */
export class WorkspaceRepository {
  constructor(private readonly db: Db) {}

  async create(row: WorkspaceRow, ownerId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('workspaces').values(row).execute();
      await trx
        .insertInto('workspace_members')
        .values({
          workspace_id: row.id,
          user_id: ownerId,
          role: 'owner',
          added_by: ownerId,
          created_at: row.created_at,
        })
        .execute();
    });
  }

  find(id: string): Promise<WorkspaceRow | undefined> {
    return this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's role in a team workspace; undefined when not a member (or no such workspace). */
  async roleOf(workspaceId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  /** The team workspaces the user is a member of, with their role and member count, oldest first. */
  listForMember(
    userId: string,
  ): Promise<(WorkspaceRow & { role: string; members: number | string | bigint })[]> {
    return this.db
      .selectFrom('workspaces as w')
      .innerJoin('workspace_members as m', 'm.workspace_id', 'w.id')
      .selectAll('w')
      .select('m.role')
      .select((eb) =>
        eb
          .selectFrom('workspace_members as all_m')
          .whereRef('all_m.workspace_id', '=', 'w.id')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .as('members'),
      )
      .where('m.user_id', '=', userId)
      .orderBy('w.created_at')
      .orderBy('w.id')
      .$castTo<WorkspaceRow & { role: string; members: number | string | bigint }>()
      .execute();
  }

  members(workspaceId: string): Promise<MemberView[]> {
    return this.db
      .selectFrom('workspace_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select(['u.email', 'u.first_name', 'u.last_name'])
      .where('m.workspace_id', '=', workspaceId)
      .orderBy('m.created_at')
      .orderBy('u.email_normalized')
      .execute();
  }

  countMembers(workspaceId: string): Promise<number> {
    return this.countMemberships({ workspace_id: workspaceId });
  }

  countOwners(workspaceId: string): Promise<number> {
    return this.countMemberships({ workspace_id: workspaceId, role: 'owner' });
  }

  countForMember(userId: string): Promise<number> {
    return this.countMemberships({ user_id: userId });
  }

  /** Memberships whose columns equal those given. */
  private async countMemberships(
    where: Partial<Record<'workspace_id' | 'user_id' | 'role', string>>,
  ): Promise<number> {
    let query = this.db.selectFrom('workspace_members').select((eb) => eb.fn.countAll<number>().as('n'));
    for (const [column, value] of Object.entries(where) as ['workspace_id' | 'user_id' | 'role', string][])
      query = query.where(column, '=', value);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** False when the account is a member already (the primary key). */
  async addMember(row: WorkspaceMemberRow): Promise<boolean> {
    const result = await this.db
      .insertInto('workspace_members')
      .values(row)
      .onConflict((c) => c.columns(['workspace_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async setRole(workspaceId: string, userId: string, role: string): Promise<boolean> {
    const result = await this.db
      .updateTable('workspace_members')
      .set({ role })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async removeMember(workspaceId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('workspace_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async update(id: string, changes: { name?: string; timezone?: string; updated_at: string }): Promise<void> {
    await this.db.updateTable('workspaces').set(changes).where('id', '=', id).execute();
  }

  async addInvite(row: WorkspaceInviteRow): Promise<void> {
    await this.db.insertInto('workspace_invites').values(row).execute();
  }

  /** The workspace's invite links that have not expired, with the address of who made each, newest first. */
  invites(workspaceId: string, now: string): Promise<(WorkspaceInviteRow & { creator_email: string })[]> {
    return this.db
      .selectFrom('workspace_invites as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .selectAll('i')
      .select('u.email as creator_email')
      .where('i.workspace_id', '=', workspaceId)
      .where('i.expires_at', '>', now)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id')
      .execute();
  }

  async deleteInvite(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('workspace_invites')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The invite link with this token's hash, and its workspace's name. */
  findInvite(tokenHash: string): Promise<(WorkspaceInviteRow & { workspace_name: string }) | undefined> {
    return this.db
      .selectFrom('workspace_invites as i')
      .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
      .selectAll('i')
      .select('w.name as workspace_name')
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Uses the invite link: it is deleted and the user added with its role, in one transaction, so a link
   * is used once even when two accept it at the same moment. False when it was used meanwhile.
   */
  async acceptInvite(invite: WorkspaceInviteRow, userId: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx.deleteFrom('workspace_invites').where('id', '=', invite.id).executeTakeFirst();
      if (taken.numDeletedRows === 0n) return false;
      await trx
        .insertInto('workspace_members')
        .values({
          workspace_id: invite.workspace_id,
          user_id: userId,
          role: invite.role,
          added_by: invite.created_by,
          created_at: at,
        })
        .execute();
      return true;
    });
  }

  /** Load, API, script and UI runs of the workspace still going. */
  async runsGoing(workspaceId: string): Promise<number> {
    const [load, functional] = await Promise.all([
      this.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('status', 'in', ['running', 'processing'])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('functional_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow(),
    ]);
    return Number(load.n) + Number(functional.n);
  }

  /** The workspace and every row it owns, in one transaction (children before parents). */
  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const table of OWNED_TABLES) {
        await trx.deleteFrom(table).where('workspace_id', '=', id).execute();
      }
      await trx.deleteFrom('audit_log').where('owner_id', '=', id).execute();
      await trx.deleteFrom('workspaces').where('id', '=', id).execute();
    });
  }
}
