import { contract } from '@aqa/contract';
import { SSO_MESSAGES } from '@aqa/plan';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { NotFoundError } from '../errors';
import { SSO_LOGIN_TTL_MS, SsoError, type SsoService } from '../services/sso/sso.service';

/** The cookie that binds a sign-in's `state` to the browser that started it. */
const STATE_COOKIE = 'aqa_sso_state';
const COOKIE_PATH = '/api/auth/oidc';

/** This server's address as the browser named it (behind a proxy, with TRUST_PROXY=on, the proxy's). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function stateCookie(request: FastifyRequest, value: string, maxAgeS: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function failed(reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof SsoError)) throw error;
  return reply.redirect(`/login?sso_error=${error.failure}`, 302);
}

/** Single sign-on's two navigations (docs/adr/0033-single-sign-on.md); 404 while it is not set up. */
export const ssoRoutes: FastifyPluginCallbackZod<{ sso: SsoService | undefined }> = (app, { sso }, done) => {
  const configured = (): SsoService => {
    if (sso === undefined) throw new NotFoundError('SSO_NOT_CONFIGURED', SSO_MESSAGES.notConfigured);
    return sso;
  };

  app.route({
    ...contract.sso.start,
    handler: async (request, reply) => {
      const service = configured();
      try {
        const { url, state } = await service.start(
          originOf(request),
          request.query.return_to ?? '/dashboard',
        );
        return await reply
          .header('set-cookie', stateCookie(request, state, SSO_LOGIN_TTL_MS / 1000))
          .header('cache-control', 'no-store')
          .redirect(url, 302);
      } catch (error) {
        return failed(reply, error);
      }
    },
  });

  app.route({
    ...contract.sso.callback,
    handler: async (request, reply) => {
      const service = configured();
      // The state is good for one try, whatever happens next.
      reply.header('set-cookie', stateCookie(request, '', 0)).header('cache-control', 'no-store');
      if (request.query.error !== undefined) {
        request.log.warn(
          { error: request.query.error },
          'The OpenID provider answered the sign-in with an error',
        );
        return reply.redirect('/login?sso_error=refused_by_provider', 302);
      }
      // The URL the provider redirected to, as registered: its query carries the code and the state.
      const callbackUrl = new URL(service.redirectUri(originOf(request)));
      callbackUrl.search = new URL(request.url, 'http://callback.invalid').search;
      try {
        const signedIn = await service.finish(callbackUrl, cookieOf(request, STATE_COOKIE));
        const fragment = new URLSearchParams({
          token: signedIn.token,
          expires_at: signedIn.expiresAt,
          return_to: signedIn.returnTo,
        });
        // A fragment never leaves the browser: the session is in no server's or proxy's log.
        return await reply.redirect(`/login/sso#${fragment.toString()}`, 302);
      } catch (error) {
        return failed(reply, error);
      }
    },
  });
  done();
};
