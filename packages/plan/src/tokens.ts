import { z } from 'zod';
import { oneLine, wholeNumber } from './strict-input';

/*
 * API tokens for CI (docs/adr/0012-api-tokens-and-sessions.md): the wire shapes of POST, GET and
 * DELETE /api/tokens. The server's routes, the Settings screen and the `aqa` CLI read these; there is
 * no second copy.
 */

/**
 * Every API token starts with this, so that a token pasted into a CI secret is recognisable at a
 * glance and the server tells it from a sign-in session without a lookup.
 */
export const API_TOKEN_PREFIX = 'aqa_';
/** The longest token name, in characters. */
export const API_TOKEN_NAME_MAX = 100;
/** The longest expiry a token may be given, in days (about ten years). */
export const API_TOKEN_EXPIRY_DAYS_MAX = 3650;
/** Tokens a user may hold at once (expired ones count until they are revoked). */
export const API_TOKENS_PER_USER = 50;

/**
 * What a token may do (docs/adr/0023-agents-over-http.md): `api` calls the API as its user (every token
 * made before scopes existed); `agent` only registers and runs load agents (`aqa agent`), and is
 * refused everywhere else.
 */
export const API_TOKEN_SCOPES = ['api', 'agent'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_MESSAGES = {
  nameRequired: 'Please enter a token name',
  nameTooLong: `A token name is at most ${API_TOKEN_NAME_MAX} characters`,
  expiryInvalid: `Expiry must be a whole number of days from 1 to ${API_TOKEN_EXPIRY_DAYS_MAX}, or left empty for a token that never expires`,
  tooMany: `You already have ${API_TOKENS_PER_USER} API tokens. Revoke one you no longer use before creating another.`,
  notFound: 'API token not found',
  expired: 'This API token has expired. Create a new one in Settings.',
  revoked: 'This API token has been revoked. Create a new one in Settings.',
  unknown: 'This API token is not valid: it may have been mistyped or deleted. Create a new one in Settings.',
  sessionRequired:
    'API tokens cannot manage API tokens, change the profile or password, or sign out. Sign in to the web app for this.',
  scopeInvalid: 'The scope must be "api" (the API as you) or "agent" (load agents only)',
  agentTokenOnlyForAgents:
    'This is an agent token: it may only register and run load agents (aqa agent). Use an API token of the scope "API", or sign in, for anything else.',
  agentTokenRequired:
    'Load agents need an API token with the scope "Load agent": create one in Settings → API tokens and start aqa agent with it.',
} as const;

/** POST /api/tokens body. */
export const ApiTokenCreateSchema = z.object({
  name: oneLine('Token name', API_TOKEN_MESSAGES.nameRequired)
    .trim()
    .min(1, API_TOKEN_MESSAGES.nameRequired)
    .max(API_TOKEN_NAME_MAX, API_TOKEN_MESSAGES.nameTooLong),
  /** Absent or null: the token never expires. */
  expires_in_days: wholeNumber(API_TOKEN_MESSAGES.expiryInvalid, 1, API_TOKEN_EXPIRY_DAYS_MAX)
    .optional()
    .nullable()
    .describe(`Days until the token stops working, 1–${API_TOKEN_EXPIRY_DAYS_MAX}; absent or null: never`),
  scope: z
    .enum(API_TOKEN_SCOPES, { error: () => API_TOKEN_MESSAGES.scopeInvalid })
    .default('api')
    .describe('api: the API as you (default); agent: only the load-agent routes (aqa agent)'),
});
export type ApiTokenCreate = z.input<typeof ApiTokenCreateSchema>;

/** A token as listed: never the token itself nor its hash. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string().describe('ISO time'),
  last_used_at: z
    .string()
    .nullable()
    .describe('ISO time of the last call made with it (to the minute); null: never used'),
  expires_at: z.string().nullable().describe('ISO time at which it stops working; null: never expires'),
  expired: z
    .boolean()
    .describe('true once expires_at has passed: the token is refused until revoked and replaced'),
  scope: z.enum(API_TOKEN_SCOPES).describe('api: the API as its user; agent: only the load-agent routes'),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** POST /api/tokens answer: the token, shown this once. */
export const ApiTokenCreatedSchema = ApiTokenSchema.extend({
  token: z
    .string()
    .describe(`The bearer token (starts "${API_TOKEN_PREFIX}"); it is not stored and never shown again`),
});
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedSchema>;

/** GET /api/tokens answer: the caller's tokens, newest first. */
export const ApiTokenListSchema = z.object({
  tokens: z.array(ApiTokenSchema),
  limit: z.number().int().describe('Tokens a user may hold at once'),
});
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;
