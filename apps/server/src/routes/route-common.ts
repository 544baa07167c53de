import type { ScopedIdRoute } from '@aqa/contract';
import { PERF_DATA_MAX_BYTES } from '@aqa/plan';
import type { FastifySchemaValidationError } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { ValidationError } from '../errors';
import type { AccountUser } from '../services/account-user';

/**
 * The body limit of the calls that carry a whole plan: a performance plan with its script and 500 URL
 * entries, or a functional plan of 500 APIs with bodies and schemas, is far over Fastify's 1 MiB default.
 */
export const PLAN_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * A performance plan may carry 10 MB of test data besides (docs/adr/0027-load-profiles.md "Test data"); JSON
 * writes a CSV's line breaks and quotes with two characters, so the data counts twice.
 */
export const PERF_PLAN_BODY_LIMIT = PLAN_BODY_LIMIT + 2 * PERF_DATA_MAX_BYTES;

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

/**
 * Answers a call on one stored thing (a plan, a run) by id, scoped as every such call is: an
 * optional user_email must name the signed-in user (403, docs/reference/01-authoring.md §6), and
 * the thing is looked up for that user only, so another user's id is a 404. `answer` is checked
 * against the route's 200 schema.
 */
export function scopedIdRoute<R extends ScopedIdRoute>(
  app: ZodApp,
  route: R,
  answer: (user: AccountUser, id: string) => Promise<z.input<R['schema']['response'][200]>>,
): void {
  const scoped: ScopedIdRoute = route;
  app.route({
    ...scoped,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return answer(requireAuth(request).user, request.params.id);
    },
  });
}
