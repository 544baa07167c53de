import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import type { ScheduleService } from '../services/schedules/schedule.service';
import { namedFieldErrors } from './route-common';

/** Schedules (docs/adr/0031-schedules.md): the caller's own; firing them is the Scheduler's. */
export const scheduleRoutes: FastifyPluginCallbackZod<{ schedules: ScheduleService }> = (
  app,
  { schedules },
  done,
) => {
  app.route({
    ...contract.schedules.create,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      const created = await schedules.create(requireAuth(request).user, request.body);
      return reply.code(201).send(created);
    },
  });

  app.route({
    ...contract.schedules.list,
    handler: (request) => schedules.list(requireAuth(request).user),
  });

  app.route({
    ...contract.schedules.update,
    schemaErrorFormatter: namedFieldErrors,
    handler: (request) => schedules.update(requireAuth(request).user, request.params.id, request.body),
  });

  app.route({
    ...contract.schedules.remove,
    handler: async (request, reply) => {
      await schedules.remove(requireAuth(request).user, request.params.id);
      return reply.code(204).send();
    },
  });
  done();
};
