import { contract } from '@aqa/contract';
import type {
  InvitePreview,
  WorkspaceCreate,
  WorkspaceInviteCreate,
  WorkspaceInviteCreated,
  WorkspaceMemberAdd,
  WorkspaceMembers,
  WorkspaceRole,
  WorkspaceSummary,
  WorkspaceUpdate,
} from '@aqa/plan';
import { call } from '@/lib/api';

/*
 * The calls of the Workspace screen (packages/contract/src/routes/workspaces.ts). Each names its
 * workspace in the path; the list is read through useWorkspaces() (lib/workspace.ts).
 */

export function createWorkspace(body: WorkspaceCreate): Promise<WorkspaceSummary> {
  return call(contract.workspaces.create, { body });
}

export function updateWorkspace(id: string, body: WorkspaceUpdate): Promise<WorkspaceSummary> {
  return call(contract.workspaces.update, { params: { id }, body });
}

export function deleteWorkspace(id: string): Promise<void> {
  return call(contract.workspaces.delete, { params: { id } });
}

export function addMember(id: string, body: WorkspaceMemberAdd): Promise<WorkspaceMembers> {
  return call(contract.workspaces.addMember, { params: { id }, body });
}

export function setMemberRole(id: string, userId: string, role: WorkspaceRole): Promise<WorkspaceMembers> {
  return call(contract.workspaces.setRole, { params: { id, userId }, body: { role } });
}

/** Removes a member; with the caller's own user id, leaves the workspace. */
export function removeMember(id: string, userId: string): Promise<WorkspaceMembers> {
  return call(contract.workspaces.removeMember, { params: { id, userId } });
}

export function createInvite(id: string, body: WorkspaceInviteCreate): Promise<WorkspaceInviteCreated> {
  return call(contract.workspaces.createInvite, { params: { id }, body });
}

export function withdrawInvite(id: string, inviteId: string): Promise<void> {
  return call(contract.workspaces.withdrawInvite, { params: { id, inviteId } });
}

export function previewInvite(token: string): Promise<InvitePreview> {
  return call(contract.workspaces.previewInvite, { params: { token } });
}

/** Joins the invite's workspace: answers it as the switcher lists it. */
export function acceptInvite(token: string): Promise<WorkspaceSummary> {
  return call(contract.workspaces.acceptInvite, { params: { token } });
}
