import { ErrorResponseSchema, PerfPlanSchema, ValidationResponseSchema } from '@aqa/plan';
import {
  defineRoute,
  IdParamsSchema,
  MessageResponseSchema,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
  scopedIdRoute,
} from '../route';
import {
  DownloadScriptResponseSchema,
  GenerateScriptResponseSchema,
  PlanListQuerySchema,
  PlanListResponseSchema,
  SavedPlanSchema,
  SavePlanResponseSchema,
  ScriptBodySchema,
  UpdatePlanResponseSchema,
} from '../schemas/plan';

const tags = ['plans'];

/** Performance plans and their scripts (docs/reference/01-authoring.md). */
export const plans = {
  save: defineRoute({
    method: 'POST',
    url: '/api/save-test-plan',
    schema: {
      tags,
      summary: 'Save a new performance test plan; the script is generated for its tool when none is sent',
      body: PerfPlanSchema,
      response: { 201: SavePlanResponseSchema, ...SCOPED_ERRORS },
    },
  }),
  update: defineRoute({
    method: 'PUT',
    url: '/api/update-test-plan/:id',
    schema: {
      tags,
      summary: 'Replace a saved plan with the plan sent',
      description:
        "With `version` (the saved plan's version the update was made from), a plan that changed since is not replaced: 409 PLAN_CHANGED. Without it, the plan is replaced whatever its version.",
      params: IdParamsSchema,
      body: PerfPlanSchema,
      response: { 200: UpdatePlanResponseSchema, ...SCOPED_ERRORS_WITH_404, 409: ErrorResponseSchema },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/get-test-plans',
    schema: {
      tags,
      summary: "The signed-in user's plans, newest first; X-Total-Count holds the total",
      querystring: PlanListQuerySchema,
      response: { 200: PlanListResponseSchema, ...SCOPED_ERRORS },
    },
  }),
  generateScript: defineRoute({
    method: 'POST',
    url: '/api/generate-script',
    schema: {
      tags: ['scripts'],
      summary: 'The script of an unsaved plan for a tool, with what the tool cannot express as warnings',
      body: ScriptBodySchema,
      response: { 200: GenerateScriptResponseSchema, ...SCOPED_ERRORS },
    },
  }),
  validateScript: defineRoute({
    method: 'POST',
    url: '/api/validate-script',
    schema: {
      tags: ['scripts'],
      summary:
        'Send each API of the plan once, in order, from the server and judge its validations; network failures are per-API errors',
      body: ScriptBodySchema,
      response: { 200: ValidationResponseSchema, ...SCOPED_ERRORS },
    },
  }),
  get: scopedIdRoute({
    method: 'GET',
    url: '/api/get-test-plan/:id',
    tags,
    summary: 'One saved plan',
    response: SavedPlanSchema,
  }),
  delete: scopedIdRoute({
    method: 'DELETE',
    url: '/api/delete-test-plan/:id',
    tags,
    summary: 'Delete a saved plan',
    response: MessageResponseSchema,
  }),
  downloadScript: scopedIdRoute({
    method: 'GET',
    url: '/api/download-script/:id',
    tags,
    summary: "A saved plan's script for its tool: generated afresh, or as saved when it was edited by hand",
    response: DownloadScriptResponseSchema,
  }),
};
