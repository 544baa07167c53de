import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import type { AuditService } from '../services/audit/audit.service';
import { namedFieldErrors } from './route-common';

/** The audit log (docs/adr/0034-audit-log.md): the caller's own, as a list or as CSV. */
export const auditRoutes: FastifyPluginCallbackZod<{ audit: AuditService }> = (app, { audit }, done) => {
  app.route({
    ...contract.audit.list,
    schemaErrorFormatter: namedFieldErrors,
    handler: (request) => audit.list(requireAuth(request).user, request.query.limit, request.query.before),
  });

  app.route({
    ...contract.audit.export,
    handler: async (request, reply) => {
      const csv = await audit.csv(requireAuth(request).user);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(csv);
    },
  });
  done();
};
