import { z } from 'zod';

/*
 * Workspaces and roles (docs/adr/0035-workspaces-and-roles.md): every plan, run, result, schedule,
 * channel, message and James's conversation belongs to a workspace. Each user has a personal one (its
 * id is the user's id) and may make team workspaces and add other accounts to them. The wire shapes of
 * /api/workspaces; the server, the web app's switcher and the members screen read these.
 */

/** From most to least allowed: owner (members, settings, delete), editor (plans, runs), viewer (reads). */
export const WORKSPACE_ROLES = ['owner', 'editor', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Whether `role` may do what `needed` may: owner ⊇ editor ⊇ viewer. */
export function roleAllows(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(needed);
}

/** The header (or the `workspace_id` query parameter) that names the workspace a call acts in. */
export const WORKSPACE_HEADER = 'x-workspace-id';
export const WORKSPACE_QUERY = 'workspace_id';
/** A team workspace's id starts so; any other id is a user's, whose personal workspace it names. */
export const TEAM_WORKSPACE_PREFIX = 'ws_';

export const WORKSPACE_NAME_MAX = 80;
/** Members a team workspace may have. */
export const WORKSPACE_MEMBERS_MAX = 200;

export const WORKSPACE_MESSAGES = {
  notFound: 'No such workspace, or you are not a member of it',
  nameRequired: 'Enter a name for the workspace',
  nameTooLong: `A workspace name has at most ${WORKSPACE_NAME_MAX} characters`,
  noSuchAccount: 'No account has this email address: ask them to register first',
  alreadyMember: 'This account is a member already: change its role instead',
  personalIsYours: 'A personal workspace has one member, its owner: make a team workspace to share',
  lastOwner: 'A workspace keeps at least one owner: make another member owner first',
  roleRequired: (role: WorkspaceRole, needed: WorkspaceRole) =>
    needed === 'owner'
      ? `Only an owner of this workspace may do this; your role is ${role}`
      : `Your role in this workspace is ${role}: it may read plans and results, not change or run anything`,
  created: 'Workspace created',
  deleted: 'Workspace deleted with its plans, runs and schedules',
} as const;

export const WorkspaceRoleSchema = z.enum(WORKSPACE_ROLES);

export const WorkspaceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  personal: z.boolean().describe("True for the caller's own workspace (its id is the caller's)"),
  role: WorkspaceRoleSchema.describe("The caller's role in it"),
  timezone: z.string().describe('IANA time zone its schedules are offered in'),
  members: z.number().int().describe('How many members it has'),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummarySchema>;

export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceSummarySchema) });
export type WorkspaceList = z.infer<typeof WorkspaceListSchema>;

const nameField = z
  .string({ error: WORKSPACE_MESSAGES.nameRequired })
  .trim()
  .min(1, WORKSPACE_MESSAGES.nameRequired)
  .max(WORKSPACE_NAME_MAX, WORKSPACE_MESSAGES.nameTooLong);

export const WorkspaceCreateSchema = z.object({
  name: nameField,
  timezone: z.string().max(64).optional().describe('IANA time zone; UTC when left out'),
});
export type WorkspaceCreate = z.infer<typeof WorkspaceCreateSchema>;

export const WorkspaceUpdateSchema = z.object({
  name: nameField.optional(),
  timezone: z.string().max(64).optional(),
});
export type WorkspaceUpdate = z.infer<typeof WorkspaceUpdateSchema>;

export const WorkspaceMemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string().describe('First and last name'),
  role: WorkspaceRoleSchema,
  added_at: z.string(),
});
export type WorkspaceMember = z.infer<typeof WorkspaceMemberSchema>;

export const WorkspaceMembersSchema = z.object({ members: z.array(WorkspaceMemberSchema) });
export type WorkspaceMembers = z.infer<typeof WorkspaceMembersSchema>;

export const WorkspaceMemberAddSchema = z.object({
  email: z.string().trim().min(1, 'Enter the email address of an account').max(254),
  role: WorkspaceRoleSchema,
});
export type WorkspaceMemberAdd = z.infer<typeof WorkspaceMemberAddSchema>;

export const WorkspaceMemberRoleSchema = z.object({ role: WorkspaceRoleSchema });

/** An invite link is good for this many days by default, and at most 30. */
export const INVITE_DAYS_DEFAULT = 7;
export const INVITE_DAYS_MAX = 30;
/** The web app's page an invite link opens: /invite/{token}. */
export const INVITE_PATH = '/invite';

export const INVITE_MESSAGES = {
  notFound: 'This invite link is not valid: it was used, withdrawn or mistyped. Ask for a new one',
  expired: 'This invite link has expired. Ask an owner of the workspace for a new one',
  alreadyMember: 'You are a member of this workspace already',
} as const;

export const WorkspaceInviteCreateSchema = z.object({
  role: WorkspaceRoleSchema.describe('The role the person who accepts gets'),
  days: z
    .number()
    .int()
    .min(1)
    .max(INVITE_DAYS_MAX, `An invite link lasts at most ${INVITE_DAYS_MAX} days`)
    .default(INVITE_DAYS_DEFAULT)
    .describe('How many days the link may be used'),
});
export type WorkspaceInviteCreate = z.input<typeof WorkspaceInviteCreateSchema>;

export const WorkspaceInviteSchema = z.object({
  id: z.string(),
  role: WorkspaceRoleSchema,
  created_by: z.string().describe('The address of the owner who made it'),
  created_at: z.string(),
  expires_at: z.string(),
});
export type WorkspaceInvite = z.infer<typeof WorkspaceInviteSchema>;

export const WorkspaceInviteCreatedSchema = WorkspaceInviteSchema.extend({
  token: z.string().describe('Shown once: the link is PUBLIC_URL + /invite/ + token'),
  url: z.string().describe('The whole link to send'),
});
export type WorkspaceInviteCreated = z.infer<typeof WorkspaceInviteCreatedSchema>;

export const WorkspaceInvitesSchema = z.object({ invites: z.array(WorkspaceInviteSchema) });
export type WorkspaceInvites = z.infer<typeof WorkspaceInvitesSchema>;

/** What an invite link says before it is accepted: where to, and as what. */
export const InvitePreviewSchema = z.object({
  workspace_name: z.string(),
  role: WorkspaceRoleSchema,
  expires_at: z.string(),
});
export type InvitePreview = z.infer<typeof InvitePreviewSchema>;
