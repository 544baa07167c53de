import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditService } from './audit.service';
import { AUDITED_ROUTES, type AuditedRoute } from './audited-routes';

/** The route of a request as the tables name it: "METHOD /pattern". */
export function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

function field(value: unknown, name: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' && found.trim() !== '' ? found.trim().slice(0, 200) : null;
}

function answerOf(payload: unknown): unknown {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}

/** The id an IdSource names in this call: from its path, body or answer, or the actor's. */
function idOf(
  source: AuditedRoute['id'],
  request: FastifyRequest,
  payload: unknown,
  actorId: string,
): string | null {
  switch (source.from) {
    case 'params':
      return field(request.params, source.field);
    case 'body':
      return field(request.body, source.field);
    case 'answer':
      return field(answerOf(payload), source.field);
    case 'actor':
      return actorId;
    case 'none':
      return null;
  }
}

/**
 * Records each signed-in call of AUDITED_ROUTES that succeeded (docs/adr/0034-audit-log.md): in one
 * place for every route, so a route cannot forget to, and only once it is answered with a 2xx (a
 * refused call changed nothing). The id of what a call created is read from its answer.
 */
export function registerAuditHook(app: FastifyInstance, audit: AuditService): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = AUDITED_ROUTES[routeKey(request)];
    const auth = request.auth;
    if (route === undefined || auth === null || reply.statusCode < 200 || reply.statusCode >= 300)
      return payload;
    const workspace =
      route.workspace === undefined ? null : idOf(route.workspace, request, payload, auth.user.id);
    await audit.record({
      actor: auth.user,
      ...(workspace === null ? {} : { workspaceId: workspace }),
      via: auth.via,
      action: route.action,
      object: route.object,
      objectId: idOf(route.id, request, payload, auth.user.id),
      objectName: route.name === undefined ? null : field(request.body, route.name),
      route: routeKey(request),
      ip: request.ip,
    });
    return payload;
  });
}
