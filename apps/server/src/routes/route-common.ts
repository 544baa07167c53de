import { ErrorResponseSchema } from '@aqa/plan';
import type { FastifySchemaValidationError } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { ValidationError } from '../errors';
import type { AccountUser } from '../services/account-user';
import { UserEmailQuerySchema } from './plan.schemas';

/**
 * The body limit of the calls that carry a whole plan: a performance plan with its script and 500 URL
 * entries, or a functional plan of 500 APIs with bodies and schemas, is far over Fastify's 1 MiB default.
 */
export const PLAN_BODY_LIMIT = 8 * 1024 * 1024;

/** The error answers every signed-in, user-scoped call documents (all `{ detail, code, ... }`). */
export const SCOPED_ERRORS = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
} as const;

/** The same, for calls on one stored thing (a plan, a run) that may not be the user's. */
export const SCOPED_ERRORS_WITH_404 = { ...SCOPED_ERRORS, 404: ErrorResponseSchema } as const;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Plan bodies are deep, so `detail` names each field's path: "urls.0.url: Enter the URL". */
export function namedFieldErrors(issues: FastifySchemaValidationError[], dataVar: string): Error {
  return new ValidationError(
    issues.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || dataVar,
      message: issue.message ?? 'Invalid value',
    })),
    { namesFields: true },
  );
}

/** The Fastify instance a route plugin gets, typed by its zod schemas. */
type ZodApp = Parameters<FastifyPluginCallbackZod>[0];

/** What a call on one stored thing of the user's, named by `:id` in its path, declares. */
export interface ScopedIdRoute<R extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  tags: string[];
  summary: string;
  description?: string;
  params: z.ZodObject<{ id: z.ZodString }>;
  /** The 200 answer. */
  response: R;
  /** Error answers besides 400, 401, 403 and 404 (a 409, say). */
  moreErrors?: Record<number, typeof ErrorResponseSchema>;
  /** Looks the id up for the signed-in user; another user's id must be not found (404). */
  answer: (user: AccountUser, id: string) => Promise<z.input<R>>;
}

/**
 * Declares a call on one stored thing (a plan, a run) by id, scoped as every such call is: an
 * optional user_email must name the signed-in user (403, docs/reference/01-authoring.md §6), and
 * the thing is looked up for that user only, so another user's id is a 404.
 */
export function scopedIdRoute<R extends z.ZodType>(app: ZodApp, route: ScopedIdRoute<R>): void {
  // `answer` is checked against R where the route is declared; here the 200 is any zod type.
  const ok: z.ZodType = route.response;
  app.route({
    method: route.method,
    url: route.url,
    schema: {
      tags: route.tags,
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      params: route.params,
      querystring: UserEmailQuerySchema,
      response: { 200: ok, ...SCOPED_ERRORS_WITH_404, ...route.moreErrors },
    },
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return route.answer(requireAuth(request).user, request.params.id);
    },
  });
}
