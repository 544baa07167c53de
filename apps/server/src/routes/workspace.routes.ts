import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import type { WorkspaceService } from '../services/workspaces/workspace.service';
import { namedFieldErrors } from './route-common';

/**
 * Workspaces and their members (docs/adr/0035-workspaces-and-roles.md). The calls on one workspace name
 * it in the path; the workspace hook has put the caller in it with their role (auth/route-roles.ts),
 * so `user.workspaceId` is that workspace here.
 */
export const workspaceRoutes: FastifyPluginCallbackZod<{ workspaces: WorkspaceService }> = (
  app,
  { workspaces },
  done,
) => {
  app.route({
    ...contract.workspaces.create,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) =>
      reply.code(201).send(await workspaces.create(requireAuth(request).user, request.body)),
  });
  app.route({
    ...contract.workspaces.list,
    handler: async (request) => ({ workspaces: await workspaces.list(requireAuth(request).user) }),
  });
  app.route({
    ...contract.workspaces.update,
    schemaErrorFormatter: namedFieldErrors,
    handler: (request) => workspaces.update(requireAuth(request).user, request.body),
  });
  app.route({
    ...contract.workspaces.delete,
    handler: async (request, reply) => {
      await workspaces.delete(requireAuth(request).user);
      return reply.code(204).send();
    },
  });
  app.route({
    ...contract.workspaces.members,
    handler: (request) => workspaces.members(requireAuth(request).user),
  });
  app.route({
    ...contract.workspaces.addMember,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) =>
      reply.code(201).send(await workspaces.addMember(requireAuth(request).user, request.body)),
  });
  app.route({
    ...contract.workspaces.setRole,
    schemaErrorFormatter: namedFieldErrors,
    handler: (request) =>
      workspaces.setRole(requireAuth(request).user, request.params.userId, request.body.role),
  });
  app.route({
    ...contract.workspaces.createInvite,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) =>
      reply.code(201).send(await workspaces.createInvite(requireAuth(request).user, request.body)),
  });
  app.route({
    ...contract.workspaces.invites,
    handler: (request) => workspaces.invites(requireAuth(request).user),
  });
  app.route({
    ...contract.workspaces.withdrawInvite,
    handler: async (request, reply) => {
      await workspaces.withdrawInvite(requireAuth(request).user, request.params.inviteId);
      return reply.code(204).send();
    },
  });
  app.route({
    ...contract.workspaces.previewInvite,
    handler: (request) => workspaces.previewInvite(request.params.token),
  });
  app.route({
    ...contract.workspaces.acceptInvite,
    handler: (request) => workspaces.acceptInvite(requireAuth(request).user, request.params.token),
  });
  app.route({
    ...contract.workspaces.removeMember,
    handler: (request) => workspaces.removeMember(requireAuth(request).user, request.params.userId),
  });
  done();
};
