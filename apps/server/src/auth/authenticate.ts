import { API_TOKEN_MESSAGES, API_TOKEN_PREFIX } from '@aqa/plan';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../errors';
import {
  AUTH_ERRORS,
  type AuthContext,
  type SessionAuth,
  type SessionService,
} from '../services/session.service';
import type { ApiTokenService } from '../services/token.service';
import type { BearerThrottle } from './bearer-throttle';
import { bearerToken } from './tokens';

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
  // Single sign-on: how a browser without a session gets one (docs/adr/0033-single-sign-on.md).
  'GET /api/auth/oidc/start',
  'GET /api/auth/oidc/callback',
  'GET /api/docs',
]);

/** The API reference's own files (its JSON and YAML document, Swagger UI's scripts and styles): public to read. */
const PUBLIC_API_DOCS_FILES = '/api/docs/';

/** `url` is the route pattern (e.g. "/api/plans/:id"), not the request path. */
export function isPublicApiRoute(method: string, url: string): boolean {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return PUBLIC_API_ROUTES.has(`${verb} ${url}`) || (verb === 'GET' && url.startsWith(PUBLIC_API_DOCS_FILES));
}

/**
 * The /api routes an API token may not use (docs/adr/0012-api-tokens-and-sessions.md): they manage
 * the account and its credentials, so a token leaked from a CI job cannot mint more tokens, list or
 * revoke the others, take over the account by changing its password or profile, or end the owner's
 * sessions. Every other protected route takes an API token as its user. Answered 403
 * (SESSION_REQUIRED) before the body is read.
 */
export const SESSION_ONLY_API_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/tokens',
  'GET /api/tokens',
  'DELETE /api/tokens/:id',
  'PUT /api/me',
  'POST /api/me/password',
  'POST /api/logout',
]);

/** `url` is the route pattern (e.g. "/api/tokens/:id"), not the request path. */
export function isSessionOnlyRoute(method: string, url: string): boolean {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return SESSION_ONLY_API_ROUTES.has(`${verb} ${url}`);
}

/**
 * The load-agent routes (docs/adr/0023-agents-over-http.md): only an API token of the agent scope may
 * call them (403 AGENT_TOKEN_REQUIRED to a session or another token), and such a token may call nothing
 * else (403 AGENT_TOKEN_NOT_ALLOWED), so a token kept on an agent machine cannot read or run its user's
 * tests. Decided here, before the body is read.
 */
export const AGENT_API_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/agents/register',
  'PUT /api/agents/:id/heartbeat',
  'POST /api/agents/:id/jobs/next',
  'POST /api/agents/:id/runs/:runId/events',
]);

/** Agent routes its user may call too: an agent leaves its user's list, and the user forgets an agent. */
export const AGENT_OR_USER_API_ROUTES: ReadonlySet<string> = new Set(['DELETE /api/agents/:id']);

/** Whether the route answers `auth`, as far as the token's scope goes; throws the 403 in words if not. */
function checkScope(auth: AuthContext, method: string, url: string): void {
  const key = `${method.toUpperCase()} ${url}`;
  if (AGENT_OR_USER_API_ROUTES.has(key)) return;
  const agentToken = auth.via === 'api_token' && auth.scope === 'agent';
  if (AGENT_API_ROUTES.has(key)) {
    if (!agentToken)
      throw new ForbiddenError('AGENT_TOKEN_REQUIRED', API_TOKEN_MESSAGES.agentTokenRequired, {
        hint: 'Settings → API tokens → Scope: Load agent.',
      });
  } else if (agentToken) {
    throw new ForbiddenError('AGENT_TOKEN_NOT_ALLOWED', API_TOKEN_MESSAGES.agentTokenOnlyForAgents);
  }
}

export function isProtectedRoute(method: string, url: string | undefined): boolean {
  // No matched route: the not-found handler answers (404), with no data to protect.
  if (url === undefined) return false;
  return (url === '/api' || url.startsWith('/api/')) && !isPublicApiRoute(method, url);
}

/**
 * Resolves the bearer token on every protected route before the body is even parsed, so
 * anonymous callers cannot make the server parse or validate anything for them. A token starting
 * "aqa_" is an API token (session tokens never do, src/auth/tokens.ts); any other is a session.
 */
export function registerAuthentication(
  app: FastifyInstance,
  sessions: SessionService,
  apiTokens: ApiTokenService,
  throttle?: BearerThrottle,
): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined || !isProtectedRoute(request.method, url)) return;
    const token = bearerToken(request.headers.authorization);
    // A presented token that fails counts against its address; past the limit, a token the address
    // never used is refused before it is looked up (BearerThrottle).
    if (token !== undefined) await throttle?.admit(token, request.ip);
    let auth: AuthContext;
    try {
      auth =
        token?.startsWith(API_TOKEN_PREFIX) === true
          ? await apiTokens.authenticate(token)
          : await sessions.authenticate(request.headers.authorization);
    } catch (error) {
      if (token !== undefined && error instanceof UnauthorizedError)
        await throttle?.recordFailure(request.ip);
      throw error;
    }
    if (token !== undefined) await throttle?.remember(token, request.ip);
    checkScope(auth, request.method, url);
    if (auth.via === 'api_token' && isSessionOnlyRoute(request.method, url)) {
      throw new ForbiddenError('SESSION_REQUIRED', API_TOKEN_MESSAGES.sessionRequired, {
        hint: 'Use this from the web app, signed in with your email and password.',
      });
    }
    request.auth = auth;
  });
}

/** The signed-in user of a protected route's request; throws 401 if called on a public route. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (request.auth === null) throw new UnauthorizedError('NOT_SIGNED_IN', AUTH_ERRORS.notSignedIn);
  return request.auth;
}

/**
 * The signed-in session of a route in SESSION_ONLY_API_ROUTES. The authentication hook has already
 * refused API tokens there; this says so to the type checker, and refuses them again should a route
 * call it without being listed.
 */
export function requireSession(request: FastifyRequest): SessionAuth {
  const auth = requireAuth(request);
  if (auth.via !== 'session')
    throw new ForbiddenError('SESSION_REQUIRED', API_TOKEN_MESSAGES.sessionRequired);
  return auth;
}
