import { contract } from '@aqa/contract';
import { roleAllows, type WorkspaceRole, type WorkspaceSummary } from '@aqa/plan';
import { useRouteQuery } from './queries';
import { useCurrentWorkspaceId } from './workspace-store';

/*
 * The current workspace as screens see it (docs/adr/0035-workspaces-and-roles.md): who may do what here,
 * so that a viewer is not offered Run or Save the server would refuse. The server's refusal stays the
 * real guard; this only spares the user a button that cannot work.
 */

export interface CurrentWorkspace {
  /** null: the signed-in user's personal workspace (the calls name none). */
  id: string | null;
  personal: boolean;
  /** The server's entry, once the list has come (always there for the switcher and the Workspace screen). */
  summary: WorkspaceSummary | null;
  /** null while a team workspace's role is not known yet. */
  role: WorkspaceRole | null;
  /** May change plans, runs and schedules (editor or owner). */
  canEdit: boolean;
  /** May change the members and settings, and delete the workspace. */
  isOwner: boolean;
  /**
   * Known to be a viewer: screens hide or disable what the server would refuse. Not set while the role
   * is unknown, so an editor is not shown disabled buttons while the list loads.
   */
  readOnly: boolean;
}

/** The workspaces the user is a member of, the personal one first (GET /api/workspaces). */
export function useWorkspaces(enabled = true) {
  return useRouteQuery(contract.workspaces.list, undefined, { enabled, staleTime: 30_000 });
}

/** What the list says of workspace `id` (null: the personal one). */
export function findWorkspace(
  workspaces: readonly WorkspaceSummary[],
  id: string | null,
): WorkspaceSummary | null {
  return workspaces.find((entry) => (id === null ? entry.personal : entry.id === id)) ?? null;
}

/**
 * The current workspace. The user owns their personal one, so its role needs no call; a team one's comes
 * with the list. Until it has, nothing that changes data is offered.
 */
export function useWorkspace(): CurrentWorkspace {
  const id = useCurrentWorkspaceId();
  const list = useWorkspaces(id !== null);
  const summary = list.data ? findWorkspace(list.data.workspaces, id) : null;
  const role: WorkspaceRole | null = id === null ? 'owner' : (summary?.role ?? null);
  return {
    id,
    personal: id === null,
    summary,
    role,
    canEdit: role !== null && roleAllows(role, 'editor'),
    isOwner: role === 'owner',
    readOnly: role === 'viewer',
  };
}
