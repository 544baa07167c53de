import type { contract } from '@aqa/contract';
import {
  type RunTestBodySchema,
  type SaveTestResultBodySchema,
  type SavedApiDefinitionSchema,
  type SavedFunctionalPlanSchema,
  type SavedFunctionalValidationSchema,
  type SavedLoadProfileSchema,
  type SavedPlanSchema,
  type SavedUrlEntrySchema,
} from '@aqa/contract';
import type { ApiDefinition, FunctionalValidation, LoadProfile, UrlEntry } from '@aqa/plan';
import type { z } from 'zod';
import type { CLI_FILE_NAME } from '../services/cli-download.service';
import type { SavedFunctionalPlan } from '../services/functional/functional-rows';
import type { RunAnnotationChange } from '../services/history/history.service';
import type { RunTestRequest } from '../services/runs/run-request';
import type { SavedPlan } from '../services/saved-plan';

/*
 * The contract's answers are the model's output types written out without transforms (the response
 * serializer encodes through them), and its bodies are what the services read. Each pair is checked
 * here at compile time: a field added to (or dropped from) one side without the other fails
 * `npm run typecheck` (docs/contract.md).
 */

/** Mutual assignability. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const fits: [
  Same<z.output<typeof SavedUrlEntrySchema>, UrlEntry>,
  Same<z.output<typeof SavedPlanSchema>, SavedPlan>,
  Same<z.output<typeof SavedLoadProfileSchema>, LoadProfile>,
  Same<z.output<typeof SavedFunctionalValidationSchema>, FunctionalValidation>,
  Same<z.output<typeof SavedApiDefinitionSchema>, ApiDefinition>,
  Same<z.output<typeof SavedFunctionalPlanSchema>, SavedFunctionalPlan>,
  // A new body field is a compile error until the service reads it.
  z.output<typeof RunTestBodySchema> extends RunTestRequest ? true : false,
  z.output<typeof SaveTestResultBodySchema> extends RunAnnotationChange ? true : false,
  // The download route's path names the file the service serves.
  typeof contract.downloads.cli.url extends `/downloads/${typeof CLI_FILE_NAME}` ? true : false,
] = [true, true, true, true, true, true, true, true, true];
void fits;
