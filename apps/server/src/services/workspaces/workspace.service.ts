import { randomBytes } from 'node:crypto';
import {
  INVITE_MESSAGES,
  INVITE_PATH,
  type InvitePreview,
  type WorkspaceInviteCreate,
  WorkspaceInviteCreateSchema,
  type WorkspaceInviteCreated,
  type WorkspaceInvites,
  isTimeZone,
  normalizeEmail,
  roleAllows,
  TEAM_WORKSPACE_PREFIX,
  WORKSPACE_MEMBERS_MAX,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLES,
  type WorkspaceCreate,
  type WorkspaceMemberAdd,
  type WorkspaceMembers,
  type WorkspaceRole,
  type WorkspaceSummary,
  type WorkspaceUpdate,
} from '@aqa/plan';
import { type Clock, isoAt } from '../../clock';
import type { WorkspaceRow } from '../../db/schema';
import { hashToken } from '../../auth/tokens';
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../errors';
import type { UserRepository } from '../../repositories/user.repository';
import type { WorkspaceRepository } from '../../repositories/workspace.repository';
import { type AccountUser, inWorkspace } from '../account-user';

/** Workspaces one account may belong to (its personal one aside). */
export const WORKSPACES_PER_USER_MAX = 50;

function workspaceNotFound(): NotFoundError {
  return new NotFoundError('WORKSPACE_NOT_FOUND', WORKSPACE_MESSAGES.notFound);
}

/** The 403 of a role too low for the call, in words (docs/adr/0035-workspaces-and-roles.md). */
export function roleTooLow(role: WorkspaceRole, needed: WorkspaceRole): ForbiddenError {
  return new ForbiddenError('WORKSPACE_ROLE', WORKSPACE_MESSAGES.roleRequired(role, needed), {
    hint: 'An owner of the workspace can change your role on its Workspace screen.',
  });
}

function isRole(value: string): value is WorkspaceRole {
  return (WORKSPACE_ROLES as readonly string[]).includes(value);
}

/**
 * Workspaces and roles (docs/adr/0035-workspaces-and-roles.md): which workspace a call acts in and with
 * what role, and the team workspaces' members. A personal workspace (id = its user's id) is always
 * there, with its user as owner and no one else; a team workspace is a row with members.
 */
export class WorkspaceService {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly users: UserRepository,
    private readonly now: Clock,
    /** The address people open the app at (PUBLIC_URL): an invite link is under it. */
    private readonly publicUrl = '',
  ) {}

  /**
   * The user acting in `workspaceId` with their role there, refused with 404 when they are not a member
   * (so ids of other workspaces cannot be probed) and 403 when the role is below `needed`.
   */
  async actIn(user: AccountUser, workspaceId: string, needed: WorkspaceRole): Promise<AccountUser> {
    const role = await this.roleOf(user.id, workspaceId);
    if (role === undefined) throw workspaceNotFound();
    if (!roleAllows(role, needed)) throw roleTooLow(role, needed);
    return inWorkspace(user, workspaceId, role);
  }

  /** The user's role in the workspace; undefined when they are not a member. */
  async roleOf(userId: string, workspaceId: string): Promise<WorkspaceRole | undefined> {
    if (workspaceId === userId) return 'owner';
    if (!workspaceId.startsWith(TEAM_WORKSPACE_PREFIX)) return undefined;
    const role = await this.workspaces.roleOf(workspaceId, userId);
    return role !== undefined && isRole(role) ? role : undefined;
  }

  /** The time zone schedules are offered in: the team workspace's, UTC for a personal one. */
  async timezoneOf(workspaceId: string): Promise<string> {
    if (!workspaceId.startsWith(TEAM_WORKSPACE_PREFIX)) return 'UTC';
    return (await this.workspaces.find(workspaceId))?.timezone ?? 'UTC';
  }

  async list(user: AccountUser): Promise<WorkspaceSummary[]> {
    const teams = await this.workspaces.listForMember(user.id);
    return [
      { id: user.id, name: 'Personal', personal: true, role: 'owner', timezone: 'UTC', members: 1 },
      ...teams.map((row) => this.summary(row, row.role, Number(row.members))),
    ];
  }

  async create(user: AccountUser, input: WorkspaceCreate): Promise<WorkspaceSummary> {
    const timezone = this.timezone(input.timezone) ?? 'UTC';
    if ((await this.workspaces.countForMember(user.id)) >= WORKSPACES_PER_USER_MAX)
      throw new ConflictError(
        'TOO_MANY_WORKSPACES',
        `An account belongs to at most ${WORKSPACES_PER_USER_MAX} workspaces: leave or delete one first`,
      );
    const at = isoAt(this.now());
    const row: WorkspaceRow = {
      id: `${TEAM_WORKSPACE_PREFIX}${randomBytes(12).toString('base64url')}`,
      name: input.name,
      timezone,
      created_by: user.id,
      created_at: at,
      updated_at: at,
    };
    await this.workspaces.create(row, user.id);
    return this.summary(row, 'owner', 1);
  }

  /** The workspace `user` acts in (set by the hook from the path), as the list shows it. */
  async update(user: AccountUser, input: WorkspaceUpdate): Promise<WorkspaceSummary> {
    const row = await this.team(user);
    const timezone = this.timezone(input.timezone);
    await this.workspaces.update(row.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(timezone === undefined ? {} : { timezone }),
      updated_at: isoAt(this.now()),
    });
    const updated = await this.team(user);
    return this.summary(updated, user.workspaceRole, await this.workspaces.countMembers(row.id));
  }

  async delete(user: AccountUser): Promise<void> {
    const row = await this.team(user);
    // A run still going would end with nowhere to be stored.
    const going = await this.workspaces.runsGoing(row.id);
    if (going > 0)
      throw new ConflictError(
        'RUNS_GOING',
        `${going} run${going === 1 ? ' is' : 's are'} still going in this workspace: stop ${going === 1 ? 'it' : 'them'} first`,
      );
    await this.workspaces.delete(row.id);
  }

  async members(user: AccountUser): Promise<WorkspaceMembers> {
    if (user.workspaceId === user.id)
      return {
        members: [
          {
            user_id: user.id,
            email: user.email,
            name: `${user.firstName} ${user.lastName}`.trim(),
            role: 'owner',
            added_at: '',
          },
        ],
      };
    const rows = await this.workspaces.members(user.workspaceId);
    return {
      members: rows.map((row) => ({
        user_id: row.user_id,
        email: row.email,
        name: `${row.first_name} ${row.last_name}`.trim(),
        role: isRole(row.role) ? row.role : 'viewer',
        added_at: row.created_at,
      })),
    };
  }

  async addMember(user: AccountUser, input: WorkspaceMemberAdd): Promise<WorkspaceMembers> {
    const row = await this.team(user);
    const account = await this.users.findByEmail(normalizeEmail(input.email));
    if (account === undefined)
      throw new ValidationError([{ field: 'email', message: WORKSPACE_MESSAGES.noSuchAccount }], {
        code: 'NO_SUCH_ACCOUNT',
      });
    if ((await this.workspaces.countMembers(row.id)) >= WORKSPACE_MEMBERS_MAX)
      throw new ConflictError('TOO_MANY_MEMBERS', `A workspace has at most ${WORKSPACE_MEMBERS_MAX} members`);
    const added = await this.workspaces.addMember({
      workspace_id: row.id,
      user_id: account.id,
      role: input.role,
      added_by: user.id,
      created_at: isoAt(this.now()),
    });
    if (!added) throw new ConflictError('ALREADY_MEMBER', WORKSPACE_MESSAGES.alreadyMember);
    return this.members(user);
  }

  async setRole(user: AccountUser, memberId: string, role: WorkspaceRole): Promise<WorkspaceMembers> {
    const row = await this.team(user);
    const current = await this.workspaces.roleOf(row.id, memberId);
    if (current === undefined) throw memberNotFound();
    if (current === 'owner' && role !== 'owner' && (await this.workspaces.countOwners(row.id)) <= 1)
      throw new ConflictError('LAST_OWNER', WORKSPACE_MESSAGES.lastOwner);
    await this.workspaces.setRole(row.id, memberId, role);
    return this.members(user);
  }

  /** An owner removes a member; any member removes themself (leaves). */
  async removeMember(user: AccountUser, memberId: string): Promise<WorkspaceMembers> {
    const row = await this.team(user);
    if (memberId !== user.id && user.workspaceRole !== 'owner') throw roleTooLow(user.workspaceRole, 'owner');
    const current = await this.workspaces.roleOf(row.id, memberId);
    if (current === undefined) throw memberNotFound();
    if (current === 'owner' && (await this.workspaces.countOwners(row.id)) <= 1)
      throw new ConflictError('LAST_OWNER', WORKSPACE_MESSAGES.lastOwner);
    await this.workspaces.removeMember(row.id, memberId);
    return this.members(user);
  }

  /** An invite link for a role, good for some days (docs/adr/0035-workspaces-and-roles.md). */
  async createInvite(user: AccountUser, body: WorkspaceInviteCreate): Promise<WorkspaceInviteCreated> {
    const row = await this.team(user);
    const input = WorkspaceInviteCreateSchema.parse(body);
    const nowMs = this.now();
    const token = randomBytes(24).toString('base64url');
    const invite = {
      id: `inv_${randomBytes(9).toString('base64url')}`,
      token_hash: hashToken(token),
      workspace_id: row.id,
      role: input.role,
      created_by: user.id,
      created_at: isoAt(nowMs),
      expires_at: isoAt(nowMs + input.days * 24 * 3600_000),
    };
    await this.workspaces.addInvite(invite);
    return {
      id: invite.id,
      role: input.role,
      created_by: user.email,
      created_at: invite.created_at,
      expires_at: invite.expires_at,
      token,
      url: `${this.publicUrl}${INVITE_PATH}/${token}`,
    };
  }

  async invites(user: AccountUser): Promise<WorkspaceInvites> {
    const row = await this.team(user);
    const rows = await this.workspaces.invites(row.id, isoAt(this.now()));
    return {
      invites: rows.map((invite) => ({
        id: invite.id,
        role: isRole(invite.role) ? invite.role : 'viewer',
        created_by: invite.creator_email,
        created_at: invite.created_at,
        expires_at: invite.expires_at,
      })),
    };
  }

  async withdrawInvite(user: AccountUser, inviteId: string): Promise<void> {
    const row = await this.team(user);
    if (!(await this.workspaces.deleteInvite(row.id, inviteId))) throw inviteNotFound();
  }

  /** What the link offers, to any signed-in account: refused in words when used, withdrawn or expired. */
  async previewInvite(token: string): Promise<InvitePreview> {
    const invite = await this.liveInvite(token);
    return {
      workspace_name: invite.workspace_name,
      role: isRole(invite.role) ? invite.role : 'viewer',
      expires_at: invite.expires_at,
    };
  }

  async acceptInvite(user: AccountUser, token: string): Promise<WorkspaceSummary> {
    const invite = await this.liveInvite(token);
    if ((await this.workspaces.roleOf(invite.workspace_id, user.id)) !== undefined)
      throw new ConflictError('ALREADY_MEMBER', INVITE_MESSAGES.alreadyMember);
    if ((await this.workspaces.countMembers(invite.workspace_id)) >= WORKSPACE_MEMBERS_MAX)
      throw new ConflictError('TOO_MANY_MEMBERS', `A workspace has at most ${WORKSPACE_MEMBERS_MAX} members`);
    if (!(await this.workspaces.acceptInvite(invite, user.id, isoAt(this.now())))) throw inviteNotFound();
    const row = await this.workspaces.find(invite.workspace_id);
    if (row === undefined) throw workspaceNotFound();
    return this.summary(row, invite.role, await this.workspaces.countMembers(row.id));
  }

  private async liveInvite(token: string) {
    const invite = await this.workspaces.findInvite(hashToken(token));
    if (invite === undefined) throw inviteNotFound();
    if (invite.expires_at <= isoAt(this.now()))
      throw new GoneError('INVITE_EXPIRED', INVITE_MESSAGES.expired);
    return invite;
  }

  /** The team workspace `user` acts in; a personal one is refused (it has no members to manage). */
  private async team(user: AccountUser): Promise<WorkspaceRow> {
    if (user.workspaceId === user.id)
      throw new ValidationError([{ field: 'id', message: WORKSPACE_MESSAGES.personalIsYours }], {
        code: 'PERSONAL_WORKSPACE',
      });
    const row = await this.workspaces.find(user.workspaceId);
    if (row === undefined) throw workspaceNotFound();
    return row;
  }

  private timezone(zone: string | undefined): string | undefined {
    if (zone === undefined || zone === '') return undefined;
    if (!isTimeZone(zone))
      throw new ValidationError([
        { field: 'timezone', message: `timezone: "${zone}" is not an IANA time zone (e.g. Asia/Seoul)` },
      ]);
    return zone;
  }

  private summary(row: WorkspaceRow, role: string, members: number): WorkspaceSummary {
    return {
      id: row.id,
      name: row.name,
      personal: false,
      role: isRole(role) ? role : 'viewer',
      timezone: row.timezone,
      members,
    };
  }
}

function inviteNotFound(): NotFoundError {
  return new NotFoundError('INVITE_NOT_FOUND', INVITE_MESSAGES.notFound);
}

function memberNotFound(): NotFoundError {
  return new NotFoundError('MEMBER_NOT_FOUND', 'This account is not a member of the workspace');
}
