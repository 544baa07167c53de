import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The people the test provider knows, by the account id the test signs in as. */
export const OIDC_PEOPLE: Record<string, Record<string, unknown>> = {
  ada: {
    sub: 'ada',
    email: 'ada@corp.example',
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Lovelace',
  },
  grace: {
    sub: 'grace',
    email: 'Grace.Hopper@corp.example',
    email_verified: true,
    name: 'Grace Brewster Hopper',
  },
  eve: { sub: 'eve', email: 'eve@corp.example', email_verified: false },
  nomail: { sub: 'nomail' },
};

export interface TestOidcProvider {
  issuer: string;
  /** Who signs in at the provider's next login prompt. */
  signInAs(accountId: string): void;
  /** Registers the client: its callback is known only once the server under test listens. */
  register(client: { clientId: string; clientSecret: string; redirectUri: string }): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider on a local port (`oidc-provider`, the certified implementation), for
 * the single sign-on tests (docs/adr/0033-single-sign-on.md). Its login and consent prompts are answered
 * at once for the account `signInAs` names, as a person clicking "Continue" would.
 */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let provider: Provider | undefined;
  let next = 'ada';
  const server: Server = createServer((req, res) => {
    if (provider === undefined) {
      res.writeHead(503).end('not ready');
      return;
    }
    const current = provider;
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await current.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await current.interactionFinished(
            req,
            res,
            { login: { accountId: next } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new current.Grant({
          accountId: details.session?.accountId ?? next,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope('openid email profile');
        await current.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          {
            mergeWithLastSubmission: true,
          },
        );
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    void current.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    signInAs(accountId) {
      next = accountId;
    },
    register({ clientId, clientSecret, redirectUri }) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        findAccount: (_ctx, id) =>
          OIDC_PEOPLE[id] === undefined
            ? undefined
            : { accountId: id, claims: () => Promise.resolve(OIDC_PEOPLE[id] as { sub: string }) },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['name', 'given_name', 'family_name'],
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        cookies: { keys: ['aqa-test-provider-cookie-key'] },
        pkce: { required: () => true },
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
