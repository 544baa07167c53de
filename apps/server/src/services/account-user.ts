import type { User, WorkspaceRole } from '@aqa/plan';
import type { UserRow } from '../db/schema';

/**
 * The signed-in user as services pass it around: the public fields plus the id, never the hash, and the
 * workspace the call acts in (docs/adr/0035-workspaces-and-roles.md). `id` is who acts (the rows'
 * user_id, the author); `workspaceId` is whose things they are (the rows' workspace_id, the scope of
 * every read and write). The workspace hook (auth/workspace-hook.ts) sets both from the request.
 */
export interface AccountUser extends User {
  id: string;
  workspaceId: string;
  /** The user's role in that workspace; checked by the hook before the route runs. */
  workspaceRole: WorkspaceRole;
}

/** The user acting in another workspace (the hook, and a schedule firing in its workspace). */
export function inWorkspace(user: AccountUser, workspaceId: string, role: WorkspaceRole): AccountUser {
  return { ...user, workspaceId, workspaceRole: role };
}

export function toAccountUser(row: UserRow): AccountUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    role: row.role,
    // Their personal workspace, whose id is theirs and whose owner they are.
    workspaceId: row.id,
    workspaceRole: 'owner',
  };
}

/** The user as the API shows it (UserSchema): drops the id as well. */
export function toPublicUser(user: AccountUser): User {
  return {
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    company: user.company,
    role: user.role,
  };
}

/** The one key of an email for lookups, uniqueness and the lock-out: NFKC, lower case, trimmed (@aqa/plan). */
export { normalizeEmail } from '@aqa/plan';
