import {
  ErrorResponseSchema,
  InvitePreviewSchema,
  WorkspaceInviteCreatedSchema,
  WorkspaceInviteCreateSchema,
  WorkspaceInvitesSchema,
  WorkspaceCreateSchema,
  WorkspaceListSchema,
  WorkspaceMemberAddSchema,
  WorkspaceMemberRoleSchema,
  WorkspaceMembersSchema,
  WorkspaceSummarySchema,
  WorkspaceUpdateSchema,
} from '@aqa/plan';
import { z } from 'zod';
import {
  defineRoute,
  IdParamsSchema,
  NoContentSchema,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
} from '../route';

const tags = ['workspaces'];

const InviteParamsSchema = z.object({
  id: z.string().min(1).max(200),
  inviteId: z.string().min(1).max(200),
});

const TokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

const MemberParamsSchema = z.object({
  id: z.string().min(1).max(200),
  userId: z.string().min(1).max(200),
});

/**
 * Workspaces and roles (docs/adr/0035-workspaces-and-roles.md). Every other call acts in the workspace
 * the `X-Workspace-Id` header (or a `workspace_id` query parameter) names, and in the caller's personal
 * workspace without one. These calls name the workspace in the path; a workspace the caller is not a
 * member of answers 404, a role too low for the call 403 WORKSPACE_ROLE.
 */
export const workspaces = {
  create: defineRoute({
    method: 'POST',
    url: '/api/workspaces',
    schema: {
      tags,
      summary: 'Make a team workspace; the caller is its owner',
      body: WorkspaceCreateSchema,
      response: {
        201: WorkspaceSummarySchema,
        ...SCOPED_ERRORS,
        409: ErrorResponseSchema.describe('The caller belongs to the most workspaces allowed'),
      },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/workspaces',
    schema: {
      tags,
      summary: "The workspaces the caller is a member of, the personal one first, with the caller's role",
      response: { 200: WorkspaceListSchema, ...SCOPED_ERRORS },
    },
  }),
  update: defineRoute({
    method: 'PUT',
    url: '/api/workspaces/:id',
    schema: {
      tags,
      summary: 'Rename a team workspace or change its time zone (owners)',
      params: IdParamsSchema,
      body: WorkspaceUpdateSchema,
      response: { 200: WorkspaceSummarySchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  delete: defineRoute({
    method: 'DELETE',
    url: '/api/workspaces/:id',
    schema: {
      tags,
      summary: 'Delete a team workspace with everything in it: plans, runs, schedules, channels (owners)',
      params: IdParamsSchema,
      response: { 204: NoContentSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  members: defineRoute({
    method: 'GET',
    url: '/api/workspaces/:id/members',
    schema: {
      tags,
      summary: 'The members of a workspace and their roles (any member)',
      params: IdParamsSchema,
      response: { 200: WorkspaceMembersSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  addMember: defineRoute({
    method: 'POST',
    url: '/api/workspaces/:id/members',
    schema: {
      tags,
      summary: 'Add an existing account to a team workspace by its email address, with a role (owners)',
      description:
        'The account must exist (400 NO_SUCH_ACCOUNT naming `email` otherwise); one that is a member already answers 409 ALREADY_MEMBER.',
      params: IdParamsSchema,
      body: WorkspaceMemberAddSchema,
      response: {
        201: WorkspaceMembersSchema,
        ...SCOPED_ERRORS_WITH_404,
        409: ErrorResponseSchema.describe(
          'A member already, or the workspace holds the most members allowed',
        ),
      },
    },
  }),
  setRole: defineRoute({
    method: 'PUT',
    url: '/api/workspaces/:id/members/:userId',
    schema: {
      tags,
      summary: "Change a member's role (owners); the last owner cannot stop being one",
      params: MemberParamsSchema,
      body: WorkspaceMemberRoleSchema,
      response: { 200: WorkspaceMembersSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  removeMember: defineRoute({
    method: 'DELETE',
    url: '/api/workspaces/:id/members/:userId',
    schema: {
      tags,
      summary: 'Remove a member (owners), or leave the workspace (any member, their own user id)',
      params: MemberParamsSchema,
      response: { 200: WorkspaceMembersSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  createInvite: defineRoute({
    method: 'POST',
    url: '/api/workspaces/:id/invites',
    schema: {
      tags,
      summary: 'Make an invite link to a team workspace, for a role, that expires (owners)',
      description:
        'The token is answered once and stored hashed; the link is used once: the first signed-in account to accept it becomes a member.',
      params: IdParamsSchema,
      body: WorkspaceInviteCreateSchema,
      response: { 201: WorkspaceInviteCreatedSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  invites: defineRoute({
    method: 'GET',
    url: '/api/workspaces/:id/invites',
    schema: {
      tags,
      summary: "A team workspace's invite links not yet used nor expired (owners); never their tokens",
      params: IdParamsSchema,
      response: { 200: WorkspaceInvitesSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  withdrawInvite: defineRoute({
    method: 'DELETE',
    url: '/api/workspaces/:id/invites/:inviteId',
    schema: {
      tags,
      summary: 'Withdraw an invite link (owners)',
      params: InviteParamsSchema,
      response: { 204: NoContentSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  previewInvite: defineRoute({
    method: 'GET',
    url: '/api/invites/:token',
    schema: {
      tags,
      summary: 'What an invite link offers: the workspace and the role (any signed-in account)',
      params: TokenParamsSchema,
      response: { 200: InvitePreviewSchema, ...SCOPED_ERRORS_WITH_404, 410: ErrorResponseSchema },
    },
  }),
  acceptInvite: defineRoute({
    method: 'POST',
    url: '/api/invites/:token/accept',
    schema: {
      tags,
      summary: 'Accept an invite link: the caller becomes a member of its workspace with its role',
      params: TokenParamsSchema,
      response: {
        200: WorkspaceSummarySchema,
        ...SCOPED_ERRORS_WITH_404,
        409: ErrorResponseSchema.describe('A member already (ALREADY_MEMBER)'),
        410: ErrorResponseSchema.describe('The link has expired (INVITE_EXPIRED)'),
      },
    },
  }),
};
