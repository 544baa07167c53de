import {
  type ApiDefinition,
  CAPTURE_SOURCES,
  FUNCTIONAL_PLAN_SCHEMA_VERSION,
  FUNCTIONAL_SOURCE_PAGES,
  FUNCTIONAL_SOURCES,
  FUNCTIONAL_TEST_TYPES,
  FUNCTIONAL_VALIDATION_TYPES,
  type FunctionalValidation,
  HTTP_METHODS,
  TEST_FRAMEWORKS,
  wholeNumber,
} from '@aqa/plan';
import { z } from 'zod';
import type { SavedFunctionalPlan } from '../services/functional/functional-rows';
import { SavedUrlEntrySchema, UserEmailQuerySchema } from './plan.schemas';

/*
 * Request bodies are the model's own schemas (FunctionalPlanSchema, FunctionalRunRequestSchema).
 * Answers need schemas without transforms (the serializer encodes through its schema), so the saved
 * plan below is the model's output type written out, checked against it at compile time. The result
 * answers are the model's FunctionalResultSchema and friends, which have no transforms.
 */

const text = z.string();

export const FunctionalIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const FunctionalReportQuerySchema = z.object({
  format: z
    .enum(['junit', 'json', 'html'], { error: () => 'Report format must be junit, json or html' })
    .default('json'),
  user_email: z.string().max(254).optional().describe('Optional; must name the signed-in user'),
});

/** The most runs one list call answers: the home page's Recent Activity asks for 5. */
export const MAX_LISTED_FUNCTIONAL_RUNS = 500;

export const FunctionalResultListQuerySchema = UserEmailQuerySchema.extend({
  // Plain decimal digits only (docs/design.md §11), as the other list calls' paging.
  limit: wholeNumber(
    `Must be a whole number from 1 to ${MAX_LISTED_FUNCTIONAL_RUNS}`,
    1,
    MAX_LISTED_FUNCTIONAL_RUNS,
  )
    .optional()
    .describe('The newest this many runs; all when absent'),
});

/** A functional validation rule as the model writes it (FunctionalValidationSchema's output). */
export const SavedFunctionalValidationSchema = z.object({
  id: text.optional(),
  name: text,
  type: z.enum(FUNCTIONAL_VALIDATION_TYPES),
  expected_value: text,
  description: text,
  enabled: z.boolean(),
  api_name: text.optional(),
  url: text.optional(),
  method: z.enum(HTTP_METHODS).optional(),
});

export const SavedApiDefinitionSchema = z.object({
  id: text.optional(),
  name: text,
  url: text,
  method: z.enum(HTTP_METHODS),
  headers: z.record(text, text),
  body: text,
  params: z.array(z.object({ name: text, value: text })),
  authorization: SavedUrlEntrySchema.shape.authorization,
  validations: z.array(SavedFunctionalValidationSchema),
  description: text,
  timeout: z.number().int().describe('Seconds'),
  captures: z.array(z.object({ name: text, from: z.enum(CAPTURE_SOURCES), expression: text })).optional(),
});

export const SavedFunctionalPlanSchema = z
  .object({
    id: text,
    _id: text.describe('The same as id, for clients that read _id'),
    schema_version: z.literal(FUNCTIONAL_PLAN_SCHEMA_VERSION),
    plan_id: text.optional(),
    test_name: text,
    description: text,
    apis: z.array(SavedApiDefinitionSchema),
    concurrent_users: z.number().int(),
    iterations: z.number().int(),
    ramp_up_time: z.number().int().describe('Seconds'),
    test_duration: z.number().int().describe('Minutes'),
    think_time: z.number().int().describe('Seconds'),
    test_type: z.enum(FUNCTIONAL_TEST_TYPES),
    source: z.enum(FUNCTIONAL_SOURCES),
    source_page: z.enum(FUNCTIONAL_SOURCE_PAGES).optional(),
    test_framework: z.enum(TEST_FRAMEWORKS),
    script_content: text,
    validations: z.array(SavedFunctionalValidationSchema),
    status: text.describe(
      'The last run\'s status: running, completed, failed, stopped; "saved" before any run',
    ),
    user_email: text,
    created_at: text,
    updated_at: text,
  })
  .describe('A saved functional test plan');

export const SavedFunctionalPlanListSchema = z
  .array(SavedFunctionalPlanSchema)
  .describe("The signed-in user's functional plans, newest first");

/** Mutual assignability: a field added to (or dropped from) the model without the answer fails to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const validationMatches: Same<z.output<typeof SavedFunctionalValidationSchema>, FunctionalValidation> = true;
const apiMatches: Same<z.output<typeof SavedApiDefinitionSchema>, ApiDefinition> = true;
const planMatches: Same<z.output<typeof SavedFunctionalPlanSchema>, SavedFunctionalPlan> = true;
void validationMatches;
void apiMatches;
void planMatches;
