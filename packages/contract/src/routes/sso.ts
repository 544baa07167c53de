import { ErrorResponseSchema } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute } from '../route';

const tags = ['account'];
const Redirect = z.undefined().describe('A redirect (Location)');

/**
 * Single sign-on through an OpenID Connect provider (docs/adr/0033-single-sign-on.md): two browser
 * navigations, not calls a client makes. Public: they are how a browser without a session gets one.
 */
export const sso = {
  start: defineRoute({
    method: 'GET',
    url: '/api/auth/oidc/start',
    schema: {
      tags,
      summary: "Sends the browser to the provider's sign-in (authorization code with PKCE)",
      description:
        "Sets a short-lived cookie holding the sign-in's `state`; `return_to` (a path of the web app) is opened once signed in. 404 SSO_NOT_CONFIGURED when OIDC_ISSUER is not set; 302 to /login?sso_error=provider_unreachable when the provider cannot be read.",
      querystring: z.object({ return_to: z.string().max(500).optional() }),
      response: { 302: Redirect, 404: ErrorResponseSchema },
    },
  }),
  callback: defineRoute({
    method: 'GET',
    url: '/api/auth/oidc/callback',
    schema: {
      tags,
      summary: "The provider's redirect back: signs the account of the verified e-mail address in",
      description:
        "Checks the state against the browser's cookie (once, within 10 minutes), exchanges the code with the PKCE verifier and checks the ID token. Signed in: 302 to /login/sso#token=…&expires_at=…&return_to=… (a fragment, so the session never reaches a log). Not: 302 to /login?sso_error=expired | refused_by_provider | no_email | email_not_verified | no_account | provider_unreachable.",
      querystring: z.object({
        code: z.string().max(4096).optional(),
        state: z.string().max(512).optional(),
        error: z.string().max(200).optional(),
        error_description: z.string().max(2000).optional(),
        iss: z.string().max(500).optional(),
      }),
      response: { 302: Redirect, 404: ErrorResponseSchema },
    },
  }),
};
