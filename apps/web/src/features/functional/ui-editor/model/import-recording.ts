import { contract } from '@aqa/contract';
import { ApiDefinitionSchema, FunctionalPlanSchema } from '@aqa/plan';
import { upload } from '@/lib/api';
import { apiFormOf, type FunctionalApiForm } from '../../editor/model/functional-form';

/**
 * "Import recording" on the UI screen (docs/recorded-ui-tests.md "Editing and uploading"): the file goes to
 * POST /api/functional/parse-file as a UI test (test_type ui); a browser recording is answered with a UI
 * plan whose steps become UI test cards with their action steps (docs/adr/0030-recorded-ui-tests.md §3).
 * Any other file the parse reads (an API document, a collection) is not a recording, and says what it is.
 */

/** The files the picker offers: Selenium IDE, the Recorder's JSON, a codegen script. */
export const RECORDING_ACCEPT = '.side,.json,.spec.ts,.ts,.js,application/json';

export type ImportedRecording =
  | {
      kind: 'recording';
      apis: FunctionalApiForm[];
      testName: string;
      /** What was read: tests, actions, commands skipped as the recorder skips them. */
      counts: { tests: number; actions: number; skipped: number };
      /** What could not be carried over, "location: message". */
      warnings: string[];
      /** Recorded tests the model refused, and its first words about one. */
      leftOut: number;
      firstProblem?: string;
    }
  /** The file is read, but as something else: its kind as the parse names it ("OpenAPI 3.0.3"). */
  | { kind: 'not-recording'; what: string };

export async function importRecording(file: File, signal?: AbortSignal): Promise<ImportedRecording> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('test_type', 'ui');
  const answer = await upload(contract.imports.functionalFile, form, { signal });
  if (answer.recording === undefined || answer.plan === undefined)
    return { kind: 'not-recording', what: answer.info.kind || answer.format };
  const read = FunctionalPlanSchema.safeParse(answer.plan);
  if (!read.success) throw new Error(read.error.issues[0]?.message ?? 'the answered plan cannot be read');
  const plan = read.data;
  const apis: FunctionalApiForm[] = [];
  let leftOut = 0;
  let firstProblem: string | undefined;
  for (const [index, api] of plan.apis.entries()) {
    const parsed = ApiDefinitionSchema.safeParse(api);
    if (parsed.success) apis.push(apiFormOf(parsed.data));
    else {
      leftOut += 1;
      firstProblem ??= `${index + 1}: ${parsed.error.issues[0]?.message ?? ''}`;
    }
  }
  return {
    kind: 'recording',
    apis,
    testName: plan.test_name,
    counts: answer.recording,
    warnings: answer.warnings.map((warning) =>
      warning.location === '' ? warning.message : `${warning.location}: ${warning.message}`,
    ),
    leftOut,
    ...(firstProblem === undefined ? {} : { firstProblem }),
  };
}
