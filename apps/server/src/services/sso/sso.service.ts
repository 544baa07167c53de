import { createHash, randomBytes } from 'node:crypto';
import { normalizeEmail, type SsoFailure } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import { type Clock, isoAt } from '../../clock';
import type { SsoSettings } from '../../config';
import type { SsoLoginRepository } from '../../repositories/sso-login.repository';
import type { UserRepository } from '../../repositories/user.repository';
import type { AccountService } from '../account.service';
import type { SessionService } from '../session.service';

/** How long a sign-in may stay at the provider before its callback is refused. */
export const SSO_LOGIN_TTL_MS = 10 * 60_000;

/**
 * Why a single sign-on did not sign anyone in: the callback names the failure (SSO_FAILURES) to the
 * sign-in page, which says it in the user's language — never the provider's own error text.
 */
export class SsoError extends Error {
  constructor(
    readonly failure: SsoFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'SsoError';
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A path of the web app to return to after signing in; anything else (another site) goes to the dashboard. */
export function safeReturnPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) && value.length <= 500
    ? value
    : '/dashboard';
}

/**
 * Single sign-on through an OpenID Connect provider (docs/adr/0033-single-sign-on.md): the authorization
 * code flow with PKCE (S256), a `state` bound to the browser by a cookie and a `nonce` bound to the ID
 * token, both checked by openid-client. A verified e-mail address names the account; a first sign-in
 * creates one when OIDC_CREATE_ACCOUNTS allows it. The session issued is the one a password sign-in gets.
 */
export class SsoService {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    readonly settings: SsoSettings,
    private readonly logins: SsoLoginRepository,
    private readonly users: UserRepository,
    private readonly accounts: AccountService,
    private readonly sessions: SessionService,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The provider's configuration, read once; a failed read is tried again at the next sign-in. */
  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        this.settings.clientSecret === undefined ? oidc.None() : undefined,
        // A provider on http:// is accepted only because the operator named it; production ones are https.
        new URL(this.settings.issuer).protocol === 'http:'
          ? { execute: [oidc.allowInsecureRequests] }
          : undefined,
      )
      .catch((error: unknown) => {
        this.discovered = undefined;
        this.log.error({ err: error, issuer: this.settings.issuer }, 'Could not read the OpenID provider');
        throw new SsoError('provider_unreachable', 'The sign-in provider could not be reached');
      });
    return this.discovered;
  }

  /** The callback URL: as configured, or this server's address as the browser named it. */
  redirectUri(origin: string): string {
    return this.settings.redirectUri ?? `${origin}/api/auth/oidc/callback`;
  }

  /** Starts a sign-in: the provider's URL to send the browser to, and the state its cookie keeps. */
  async start(origin: string, returnTo: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const at = this.now();
    await this.logins.deleteStartedBefore(isoAt(at - SSO_LOGIN_TTL_MS));
    await this.logins.insert({
      state_hash: sha256(state),
      code_verifier: codeVerifier,
      nonce,
      return_to: safeReturnPath(returnTo),
      created_at: isoAt(at),
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(origin),
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * Finishes a sign-in at the callback: the state must be the browser's own (its cookie) and unused, the
   * code is exchanged with the verifier, the ID token checked (issuer, audience, nonce, signature); then
   * the account of its verified address gets a session.
   */
  async finish(
    callbackUrl: URL,
    browserState: string | undefined,
  ): Promise<{ token: string; expiresAt: string; returnTo: string }> {
    const state = callbackUrl.searchParams.get('state');
    if (state === null || browserState === undefined || state !== browserState)
      throw new SsoError('expired', 'The sign-in did not start in this browser, or was already used');
    const login = await this.logins.take(sha256(state));
    if (login === undefined || Date.parse(login.created_at) < this.now() - SSO_LOGIN_TTL_MS)
      throw new SsoError('expired', 'The sign-in took too long or was already used');
    const config = await this.configuration();
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      claims = idToken;
      // The scope's claims are the UserInfo endpoint's when an access token is issued (OpenID Connect
      // Core §5.4); many providers copy them into the ID token as well, some do not.
      if (idToken !== undefined && typeof idToken.email !== 'string')
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
    } catch (error) {
      this.log.warn({ err: error }, 'The OpenID provider refused the sign-in');
      throw new SsoError('refused_by_provider', 'The sign-in provider refused the sign-in');
    }
    const email = typeof claims?.email === 'string' ? claims.email.trim() : '';
    if (email === '') throw new SsoError('no_email', 'The provider gave no e-mail address');
    if (claims?.email_verified === false)
      throw new SsoError('email_not_verified', 'The provider has not verified this e-mail address');
    const userId = await this.accountOf(email, claims ?? {});
    const session = await this.sessions.issue(userId);
    return { token: session.token, expiresAt: session.expiresAt, returnTo: login.return_to };
  }

  private async accountOf(email: string, claims: Record<string, unknown>): Promise<string> {
    const existing = await this.users.findByEmail(normalizeEmail(email));
    if (existing !== undefined) return existing.id;
    if (!this.settings.createAccounts)
      throw new SsoError(
        'no_account',
        'No account has this address, and single sign-on does not create accounts',
      );
    const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 100) : '');
    const [givenFromName = '', ...rest] = text(claims.name).split(/\s+/);
    // A password no one knows: the account signs in through the provider (docs/adr/0033-single-sign-on.md).
    const password = randomBytes(32).toString('base64url');
    await this.accounts.createAccount({
      email,
      username: email,
      password,
      confirmPassword: password,
      firstName: text(claims.given_name) || givenFromName || email.split('@')[0] || email,
      lastName: text(claims.family_name) || rest.join(' '),
      company: '',
      role: '',
    });
    const created = await this.users.findByEmail(normalizeEmail(email));
    if (created === undefined) throw new SsoError('no_account', 'The account could not be created');
    this.log.info({ userId: created.id }, 'Account created at its first single sign-on');
    return created.id;
  }
}
