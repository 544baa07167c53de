import { WORKSPACE_HEADER, WORKSPACE_QUERY } from '@aqa/plan';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../errors';
import type { AuthContext } from '../services/session.service';
import type { WorkspaceService } from '../services/workspaces/workspace.service';
import { ruleOf } from './route-roles';

const MAX_ID = 200;

/** The workspace a call names (header first, then the query parameter); undefined: the personal one. */
function namedWorkspace(request: FastifyRequest): string | undefined {
  const header = request.headers[WORKSPACE_HEADER];
  const query = (request.query as Record<string, unknown> | undefined)?.[WORKSPACE_QUERY];
  const named = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
  const trimmed = named?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  if (trimmed.length > MAX_ID)
    throw new ValidationError([{ field: WORKSPACE_QUERY, message: 'workspace id is too long' }]);
  return trimmed;
}

/**
 * Puts every signed-in call in its workspace with the caller's role there, and refuses it when the role
 * is too low (docs/adr/0035-workspaces-and-roles.md): one hook for every route, by the table of
 * route-roles.ts, before the body is read. Runs after the authentication hook (registered after it).
 * A call that names no workspace acts in the caller's personal one, so clients from before workspaces
 * work unchanged.
 */
export function registerWorkspaceHook(app: FastifyInstance, workspaces: WorkspaceService): void {
  app.addHook('onRequest', async (request) => {
    // Undefined on routes registered before the authentication hook decorated the request (the docs).
    const auth = request.auth as AuthContext | null | undefined;
    const url = request.routeOptions.url;
    if (auth === null || auth === undefined || url === undefined) return;
    const rule = ruleOf(request.method, url);
    if (rule === 'account') return;
    const id =
      rule.from === 'path'
        ? (request.params as Record<string, string | undefined>).id
        : namedWorkspace(request);
    const user = await workspaces.actIn(auth.user, id ?? auth.user.id, rule.role);
    request.auth = { ...auth, user };
  });
}
