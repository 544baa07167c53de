import { ErrorResponseSchema } from '@aqa/plan';
import { z } from 'zod';

/*
 * One route of the HTTP API, written once (docs/contract.md). The entry has the shape of a Fastify
 * route's options — `method`, `url` with `:name` parameters, and `schema` with `params`, `querystring`,
 * `body` and the answers by status — so the server registers it as it is (`app.route({ ...route,
 * handler })`), the OpenAPI document is generated from the same schemas, and `call()` (call.ts) types a
 * client's input and answer from them. Plain data and zod only: the browser imports it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSchema {
  tags: string[];
  summary: string;
  description?: string;
  /** Multipart uploads say so; their parts are read by the handler, not by a body schema. */
  consumes?: string[];
  /** `[]` for a public route outside /api (the authentication hook's public list has the /api ones). */
  security?: Record<string, string[]>[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** The answers by status; the first 2xx one is what a successful call returns. */
  response: Record<number, z.ZodType>;
}

export interface Route {
  method: Method;
  url: string;
  schema: RouteSchema;
}

/** Keeps the entry's exact type (literal method and url, each schema's own type) for the server and call(). */
export function defineRoute<const R extends Route>(route: R): R {
  return route;
}

/** The error answers every signed-in, user-scoped call documents (all `{ detail, code, ... }`). */
export const SCOPED_ERRORS = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
} as const;

/** The same, for calls on one stored thing (a plan, a run) that may not be the user's. */
export const SCOPED_ERRORS_WITH_404 = { ...SCOPED_ERRORS, 404: ErrorResponseSchema } as const;

const MAX_EMAIL = 254;

export const UserEmailQuerySchema = z.object({
  user_email: z.string().max(MAX_EMAIL).optional().describe('Optional; must name the signed-in user'),
});

export const IdParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const MessageResponseSchema = z.object({ message: z.string() });

/** A 204 answer. */
export const NoContentSchema = z.undefined().describe('No content');

/** What every call on one stored thing of the user's by `:id` declares (scopedIdRoute below). */
export interface ScopedIdRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  schema: {
    tags: string[];
    summary: string;
    description?: string;
    params: typeof IdParamsSchema;
    querystring: typeof UserEmailQuerySchema;
    response: { 200: z.ZodType } & typeof SCOPED_ERRORS_WITH_404;
  };
}

/**
 * A call on one stored thing of the user's (a plan, a run) named by `:id`, scoped as every such call is:
 * an optional user_email must name the signed-in user (403, docs/reference/01-authoring.md §6), and
 * another user's id is a 404. The server answers it with scopedIdRoute (apps/server/src/routes/route-common.ts).
 */
export function scopedIdRoute<
  const M extends ScopedIdRoute['method'],
  const U extends string,
  R extends z.ZodType,
  E extends Record<number, typeof ErrorResponseSchema> = Record<never, never>,
>(route: {
  method: M;
  url: U;
  tags: string[];
  summary: string;
  description?: string;
  /** The 200 answer. */
  response: R;
  /** Error answers besides 400, 401, 403 and 404 (a 409, say). */
  moreErrors?: E;
}) {
  const moreErrors = route.moreErrors ?? ({} as E);
  return {
    method: route.method,
    url: route.url,
    schema: {
      tags: route.tags,
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      params: IdParamsSchema,
      querystring: UserEmailQuerySchema,
      response: { 200: route.response, ...SCOPED_ERRORS_WITH_404, ...moreErrors },
    },
  } satisfies ScopedIdRoute;
}
