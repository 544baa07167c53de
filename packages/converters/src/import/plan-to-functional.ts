import {
  type ApiDefinitionInput,
  type Capture,
  CaptureSchema,
  FUNCTIONAL_BOUNDS,
  type FunctionalPlanInput,
  type FunctionalValidation,
  FunctionalValidationSchema,
  type PerfPlan,
  perfAssertionRule,
  perfItemRule,
  type UrlEntry,
} from '@aqa/plan';
import type { ImportWarning, StepSource } from './import-model';

/*
 * Performance-plan calls as a functional test's APIs (docs/design.md §9): what an upload or a saved
 * performance plan becomes when it is tested call by call. A call read from an OpenAPI document is
 * judged by what the document promises: its success status and its response body's schema.
 */

/** The names the imported rules carry, so a person sees where a rule came from. */
export const DOCUMENTED_STATUS_RULE = 'Documented status';
export const DOCUMENTED_SCHEMA_RULE = 'Documented response schema';
/** The name of the rule a performance plan entry's own assertion becomes. */
export const ASSERTION_RULE = 'Assertion';

/**
 * The rules a call imported from an OpenAPI or Swagger document is judged by: `status_code` with the
 * status the document lists for success, and `schema` with that response's JSON Schema ($refs inlined)
 * when it has one. Calls from other formats get none, and are then judged by status 200
 * (effectiveValidations in packages/plan/src/functional/validation.ts).
 */
export function responseValidations(
  source: StepSource | undefined,
  warnings: ImportWarning[] = [],
): FunctionalValidation[] {
  const response = source?.response;
  if (response === undefined) return [];
  const rules = [
    FunctionalValidationSchema.parse({
      name: DOCUMENTED_STATUS_RULE,
      type: 'status_code',
      expected_value: String(response.status),
      description:
        `The success status the document lists for ${source?.method ?? ''} ${source?.path ?? ''}`.trim(),
    }),
  ];
  if (response.schema !== undefined) {
    const schema = FunctionalValidationSchema.safeParse({
      name: DOCUMENTED_SCHEMA_RULE,
      type: 'schema',
      expected_value: JSON.stringify(response.schema),
      description: `The JSON Schema of the ${response.status} response in the document, its $refs inlined`,
    });
    if (schema.success) rules.push(schema.data);
    else {
      warnings.push({
        location: source?.location ?? '',
        message: `No schema rule is added: ${schema.error.issues.map((i) => i.message).join('; ')}`,
      });
    }
  }
  return rules;
}

/** A performance plan's extraction as a functional capture, when it is one a capture can make. */
function captureOf(step: UrlEntry): Capture | undefined {
  if (step.extractName === '' || step.extractValue.trim() === '') return undefined;
  const expression = step.extractValue.trim();
  const draft =
    step.extractType === 'json'
      ? {
          name: step.extractName,
          from: 'json_path',
          expression: expression.startsWith('$') ? expression : `$.${expression}`,
        }
      : step.extractType === 'regex'
        ? { name: step.extractName, from: 'regex', expression }
        : undefined;
  const parsed = draft && CaptureSchema.safeParse(draft);
  return parsed?.success ? parsed.data : undefined;
}

/** One call as a functional API definition; `location` names it in warnings. */
export function stepToFunctionalApi(
  step: UrlEntry,
  source: StepSource | undefined,
  location: string,
  warnings: ImportWarning[],
): ApiDefinitionInput {
  const headers: Record<string, string> = {};
  for (const header of step.headers) {
    if (header.name.trim() === '') continue;
    const name = header.name.trim();
    // A map holds a name once; HTTP joins repeated header values with commas.
    headers[name] = headers[name] === undefined ? header.value : `${headers[name]}, ${header.value}`;
  }
  const validations: FunctionalValidation[] = [];
  for (const item of step.validations) {
    // The item read as a rule of the one dialect, as Validate judges it (docs/call-core.md "A
    // performance plan's items"); one that is no rule is refused in the model's words.
    const parsed = FunctionalValidationSchema.safeParse(perfItemRule(item) ?? item);
    if (parsed.success) validations.push(parsed.data);
    else
      warnings.push({
        location,
        message: `Validation "${item.name || item.type}" is left out: ${parsed.error.issues[0]?.message ?? ''}`,
      });
  }
  // The entry's own assertion, as the rule of the one dialect the load executor and Validate judge it by
  // (docs/call-core.md "A performance plan's assertion"), so a call tested call by call checks it too.
  const assertion = perfAssertionRule(step);
  if (assertion !== null) {
    const parsed = FunctionalValidationSchema.safeParse({ ...assertion, name: ASSERTION_RULE });
    if (parsed.success) validations.push(parsed.data);
    else
      warnings.push({
        location,
        message: `The ${step.assertionType} assertion is left out: ${parsed.error.issues[0]?.message ?? ''}`,
      });
  }
  const capture = captureOf(step);
  if (step.extractName !== '' && capture === undefined) {
    warnings.push({
      location,
      message: `The ${step.extractType} extraction into {{${step.extractName}}} is left out: a functional test captures by JSON path, regex or header`,
    });
  }
  return {
    name: step.name ?? `${step.method} ${step.url}`,
    url: step.url,
    method: step.method,
    headers,
    body: step.payload,
    params: step.parameters.filter((p) => p.key !== '').map((p) => ({ name: p.key, value: p.value })),
    authorization: step.authorization,
    validations: [...responseValidations(source, warnings), ...validations],
    timeout: step.timeout,
    ...(capture ? { captures: [capture] } : {}),
  };
}

/**
 * A performance plan as a functional plan with the same calls, for FunctionalPlanSchema to read: one
 * user, one iteration, no pause (a functional test checks each call once, not load). `sources` are the
 * calls' origins when the plan was just imported, so OpenAPI calls get their documented rules.
 */
export function planToFunctional(
  plan: PerfPlan,
  sources: readonly StepSource[] = [],
): { plan: FunctionalPlanInput; warnings: ImportWarning[] } {
  const warnings: ImportWarning[] = [];
  const apis = plan.urls.map((step, index) =>
    stepToFunctionalApi(step, sources[index], sources[index]?.location ?? `urls[${index}]`, warnings),
  );
  return {
    plan: {
      test_name: plan.name,
      description: plan.description ?? '',
      apis,
      concurrent_users: FUNCTIONAL_BOUNDS.concurrent_users.fallback,
      iterations: FUNCTIONAL_BOUNDS.iterations.fallback,
      ramp_up_time: 0,
      think_time: 0,
      test_type: 'functional',
      source: 'url_input',
    },
    warnings,
  };
}
