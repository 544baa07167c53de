import type { OAuth2Client } from './build-request';
import type { Exchange, OutgoingRequest } from './http-exchange';

export type TokenResult = { ok: true; token: string } | { ok: false; error: string };

/**
 * OAuth2 client-credentials tokens of one validation pass. Each distinct client (token URL, id,
 * secret, scope) is asked once; later steps with the same client reuse its token, or its failure,
 * so a pass never hits the token endpoint twice for one client.
 *
 * The credentials go in the form body (client_secret_post), as the generated scripts send them, so
 * Validate proves what the scripts will do.
 */
export class OAuth2Tokens {
  private readonly tokens = new Map<string, Promise<TokenResult>>();

  /** `send` performs the token request with the asking step's time-out. */
  get(client: OAuth2Client, send: (request: OutgoingRequest) => Promise<Exchange>): Promise<TokenResult> {
    const key = JSON.stringify([client.tokenUrl, client.clientId, client.clientSecret, client.scope]);
    let token = this.tokens.get(key);
    if (token === undefined) {
      token = fetchToken(client, send);
      this.tokens.set(key, token);
    }
    return token;
  }
}

async function fetchToken(
  client: OAuth2Client,
  send: (request: OutgoingRequest) => Promise<Exchange>,
): Promise<TokenResult> {
  const failed = (reason: string): TokenResult => ({
    ok: false,
    error: `OAuth2 token request to ${client.tokenUrl} failed: ${reason}`,
  });
  let url: URL;
  try {
    url = new URL(client.tokenUrl);
  } catch {
    return failed('the token URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return failed('the token URL must start with http:// or https://');

  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (client.scope !== '') form.set('scope', client.scope);
  const result = await send({
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form.toString(),
  });
  if (!result.ok) return failed(result.error);
  const { status, statusText, body } = result.response;
  if (status >= 400) return failed(`the token endpoint answered ${status} ${statusText}`.trim());
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    return failed('the answer is not JSON');
  }
  const token =
    typeof answer === 'object' && answer !== null
      ? (answer as { access_token?: unknown }).access_token
      : undefined;
  if (typeof token !== 'string' || token === '') return failed('the answer has no access_token');
  return { ok: true, token };
}
