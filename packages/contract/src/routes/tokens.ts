import {
  ApiTokenCreatedSchema,
  ApiTokenCreateSchema,
  ApiTokenListSchema,
  ErrorResponseSchema,
} from '@aqa/plan';
import { defineRoute, IdParamsSchema, NoContentSchema as NoContent } from '../route';

const SESSION_ONLY = 'Needs a signed-in session: an API token gets 403 SESSION_REQUIRED.';
const REFUSED_TO_TOKENS = ErrorResponseSchema.describe('Called with an API token (SESSION_REQUIRED)');

const tags = ['account'];

/**
 * API tokens for CI (docs/reference/01-authoring.md §7, docs/adr/0012-api-tokens-and-sessions.md),
 * managed from a signed-in session only.
 */
export const tokens = {
  create: defineRoute({
    method: 'POST',
    url: '/api/tokens',
    schema: {
      tags,
      summary: 'Create an API token for CI; the token is in this answer only',
      description: SESSION_ONLY,
      body: ApiTokenCreateSchema,
      response: {
        201: ApiTokenCreatedSchema,
        400: ErrorResponseSchema,
        401: ErrorResponseSchema,
        403: REFUSED_TO_TOKENS,
        409: ErrorResponseSchema.describe('The user holds the most tokens allowed (TOO_MANY_API_TOKENS)'),
      },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/tokens',
    schema: {
      tags,
      summary: "The signed-in user's API tokens, newest first (never the tokens themselves)",
      description: SESSION_ONLY,
      response: { 200: ApiTokenListSchema, 401: ErrorResponseSchema, 403: REFUSED_TO_TOKENS },
    },
  }),
  revoke: defineRoute({
    method: 'DELETE',
    url: '/api/tokens/:id',
    schema: {
      tags,
      summary: 'Revoke an API token at once',
      description: `${SESSION_ONLY} Another user's token answers 404 like an unknown one.`,
      params: IdParamsSchema,
      response: {
        204: NoContent,
        400: ErrorResponseSchema,
        401: ErrorResponseSchema,
        403: REFUSED_TO_TOKENS,
        404: ErrorResponseSchema,
      },
    },
  }),
};
