import { FunctionalPlanSchema, FunctionalSaveResponseSchema } from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import {
  FUNCTIONAL_PLAN_MESSAGES,
  type FunctionalPlanService,
} from '../services/functional/functional-plan.service';
import {
  FunctionalIdParamsSchema,
  SavedFunctionalPlanListSchema,
  SavedFunctionalPlanSchema,
} from './functional.schemas';
import { MessageResponseSchema, UserEmailQuerySchema } from './plan.schemas';
import { namedFieldErrors, SCOPED_ERRORS, SCOPED_ERRORS_WITH_404 } from './route-common';

/** A plan of 500 APIs with bodies and schemas is far over Fastify's 1 MiB default, as for performance plans. */
const PLAN_BODY_LIMIT = 8 * 1024 * 1024;

const errors = SCOPED_ERRORS;
const errorsWith404 = SCOPED_ERRORS_WITH_404;
const tags = ['functional'];

export interface FunctionalRouteOptions {
  plans: FunctionalPlanService;
}

/**
 * The functional calls of docs/reference/02-running.md §7, scoped like performance plans: the user
 * comes from the token, a foreign user_email is a 403 and another user's id a 404.
 */
export const functionalRoutes: FastifyPluginCallbackZod<FunctionalRouteOptions> = (app, { plans }, done) => {
  app.post(
    '/api/functional/save-config',
    {
      schema: {
        tags,
        summary: 'Save a new functional test plan; test_id is its id, as the spec client reads it',
        body: FunctionalPlanSchema,
        response: { 201: FunctionalSaveResponseSchema, ...errors },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.save(requireAuth(request).user, request.body);
      return reply.code(201).send({ id: plan.id, test_id: plan.id });
    },
  );

  app.put(
    '/api/functional/update-config/:id',
    {
      schema: {
        tags,
        summary: 'Replace a saved functional plan with the plan sent; its status is kept',
        params: FunctionalIdParamsSchema,
        body: FunctionalPlanSchema,
        response: { 200: FunctionalSaveResponseSchema, ...errorsWith404 },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.update(requireAuth(request).user, request.params.id, request.body);
      return { id: plan.id, test_id: plan.id };
    },
  );

  // The spec client reads a plan by either of two paths; both answer the same.
  for (const path of ['/api/functional/get-test-config/:id', '/api/functional/get-test-plan/:id']) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: 'One saved functional plan',
          params: FunctionalIdParamsSchema,
          querystring: UserEmailQuerySchema,
          response: { 200: SavedFunctionalPlanSchema, ...errorsWith404 },
        },
        schemaErrorFormatter: namedFieldErrors,
      },
      async (request) => {
        assertSameUser(request, request.query.user_email);
        return plans.get(requireAuth(request).user, request.params.id);
      },
    );
  }

  app.delete(
    '/api/functional/delete-config/:id',
    {
      schema: {
        tags,
        summary: 'Delete a saved functional plan; its runs stay, without a plan',
        params: FunctionalIdParamsSchema,
        querystring: UserEmailQuerySchema,
        response: { 200: MessageResponseSchema, ...errorsWith404 },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      await plans.delete(requireAuth(request).user, request.params.id);
      return { message: FUNCTIONAL_PLAN_MESSAGES.deleted };
    },
  );

  app.get(
    '/api/functional/get-test-configs',
    {
      schema: {
        tags,
        summary: "The signed-in user's functional plans, newest first",
        querystring: UserEmailQuerySchema,
        response: { 200: SavedFunctionalPlanListSchema, ...errors },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return plans.list(requireAuth(request).user);
    },
  );

  done();
};
