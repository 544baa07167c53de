import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import type { NotificationService } from '../services/notifications/notification.service';

/**
 * Notifications out (docs/adr/0032-notifications-out.md): the user's channels, their delivery log, a test
 * notice, and the channels each plan's runs are told on. Another user's channel or plan is a 404.
 */
export const notificationRoutes: FastifyPluginCallbackZod<{ notifications: NotificationService }> = (
  app,
  { notifications },
  done,
) => {
  const userOf = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user;

  app.route({
    ...contract.notifications.create,
    handler: async (request, reply) =>
      reply.code(201).send(await notifications.create(userOf(request), request.body)),
  });
  app.route({
    ...contract.notifications.list,
    handler: (request) => notifications.list(userOf(request)),
  });
  app.route({
    ...contract.notifications.remove,
    handler: async (request, reply) => {
      await notifications.remove(userOf(request), request.params.id);
      return reply.code(204).send();
    },
  });
  app.route({
    ...contract.notifications.deliveries,
    handler: (request) => notifications.deliveries(userOf(request), request.params.id),
  });
  app.route({
    ...contract.notifications.test,
    handler: async (request, reply) =>
      reply.code(202).send(await notifications.test(userOf(request), request.params.id)),
  });
  app.route({
    ...contract.notifications.loadPlan,
    handler: (request) => notifications.planChannels(userOf(request), 'load', request.params.id),
  });
  app.route({
    ...contract.notifications.setLoadPlan,
    handler: (request) =>
      notifications.setPlanChannels(userOf(request), 'load', request.params.id, request.body),
  });
  app.route({
    ...contract.notifications.functionalPlan,
    handler: (request) => notifications.planChannels(userOf(request), 'functional', request.params.id),
  });
  app.route({
    ...contract.notifications.setFunctionalPlan,
    handler: (request) =>
      notifications.setPlanChannels(userOf(request), 'functional', request.params.id, request.body),
  });
  done();
};
