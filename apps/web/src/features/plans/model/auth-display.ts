import type { Authorization } from '@aqa/plan';

/** docs/reference/01-authoring.md §9: the details modal shows only the first 20 characters of bearer and OAuth2 tokens. */
export const TOKEN_PREVIEW_CHARS = 20;

/** The first 20 characters of a secret and an ellipsis when it was longer; never the rest. */
export function maskToken(token: string, visible: number = TOKEN_PREVIEW_CHARS): string {
  const chars = Array.from(token.trim());
  if (chars.length <= visible) return chars.join('');
  return `${chars.slice(0, visible).join('')}…`;
}

export interface AuthSummary {
  type: Authorization['type'];
  /** What may be shown of the credentials: a cut token, a user name, a key name; never a password. */
  detail: string;
}

/** How an API's authorization is described in the plan details, with secrets cut or left out. */
export function authSummary(auth: Authorization): AuthSummary {
  switch (auth.type) {
    case 'none':
      return { type: 'none', detail: '' };
    case 'bearer':
    case 'oauth2':
      return { type: auth.type, detail: maskToken(auth.token) };
    case 'basic':
      return { type: 'basic', detail: auth.username };
    case 'api_key':
      return { type: 'api_key', detail: auth.keyName };
  }
}

/**
 * A script with the bearer tokens and OAuth2 credentials it embeds cut to their preview, for the details
 * modal: the generated script carries them in full, and that modal shows no more than 20 characters.
 */
export function maskSecretsInScript(script: string, auths: readonly Authorization[]): string {
  const secrets = new Set<string>();
  for (const auth of auths) {
    if (auth.type === 'bearer' || auth.type === 'oauth2') {
      const token = auth.token.trim();
      if (token.length > TOKEN_PREVIEW_CHARS) secrets.add(token);
      if (auth.type === 'oauth2') {
        const secret = token.slice(token.indexOf(':') + 1);
        if (token.includes(':') && secret.length > 0) secrets.add(secret);
      }
    }
  }
  let masked = script;
  // Longest first, so a token that contains another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    masked = masked
      .split(secret)
      .join(secret.length > TOKEN_PREVIEW_CHARS ? maskToken(secret) : '•'.repeat(8));
  }
  return masked;
}
