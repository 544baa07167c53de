import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors';
import { AUTH_ERRORS, type AuthContext, type SessionService } from '../services/session.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user on protected routes (set by the authentication hook); null on public ones. */
    auth: AuthContext | null;
  }
}

/**
 * The only /api routes that answer without a session. Every other /api route requires one, so a
 * new route is protected unless it is added here on purpose.
 */
export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/health',
  'POST /api/register',
  'POST /api/login',
  'GET /api/demo-credentials',
  'GET /api/docs',
]);

/** The API reference's own files (its JSON and YAML document, Swagger UI's scripts and styles): public to read. */
const PUBLIC_API_DOCS_FILES = '/api/docs/';

/** `url` is the route pattern (e.g. "/api/plans/:id"), not the request path. */
export function isPublicApiRoute(method: string, url: string): boolean {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return PUBLIC_API_ROUTES.has(`${verb} ${url}`) || (verb === 'GET' && url.startsWith(PUBLIC_API_DOCS_FILES));
}

export function isProtectedRoute(method: string, url: string | undefined): boolean {
  // No matched route: the not-found handler answers (404), with no data to protect.
  if (url === undefined) return false;
  return (url === '/api' || url.startsWith('/api/')) && !isPublicApiRoute(method, url);
}

/**
 * Resolves the bearer token on every protected route before the body is even parsed, so
 * anonymous callers cannot make the server parse or validate anything for them.
 */
export function registerAuthentication(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!isProtectedRoute(request.method, request.routeOptions.url)) return;
    request.auth = await sessions.authenticate(request.headers.authorization);
  });
}

/** The signed-in user of a protected route's request; throws 401 if called on a public route. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (request.auth === null) throw new UnauthorizedError('NOT_SIGNED_IN', AUTH_ERRORS.notSignedIn);
  return request.auth;
}
