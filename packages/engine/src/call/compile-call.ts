import {
  effectiveAuthorization,
  effectiveValidations,
  EVIDENCE_BODY_LIMIT_BYTES,
  type ApiDefinition,
  type FunctionalPlan,
  type FunctionalValidation,
  type HttpMethod,
} from '@aqa/plan';
import {
  appendQuery,
  applyAuthorization,
  compileBody,
  HeaderList,
  type AddedHeaderNames,
  type OAuth2Spec,
} from './request-parts';
import { Template, TemplateScope, type RenderContext, type Renderable } from './template';
import { compileCapture, type CompiledCapture } from './captures';
import { JUDGED_BODY_LIMIT_BYTES } from './http-call';

/*
 * A functional plan's APIs compiled once per run (docs/design.md §9): URL, parameter values, header
 * values, body and authorization become templates of `{{name}}` (the performance plans' syntax,
 * call/template.ts), and every capture gets the variable slot its later `{{name}}` reads.
 */

/** The functional runner sends the headers it adds capitalised, as its evidence shows them. */
const FUNCTIONAL_HEADER_NAMES: AddedHeaderNames = {
  authorization: 'Authorization',
  contentType: 'Content-Type',
};

export interface CompiledApi {
  index: number;
  api: ApiDefinition;
  method: HttpMethod;
  /** The whole URL with its query, rendered and parsed per call. */
  url: Template;
  headerNames: string[];
  headerValues: Renderable[];
  body: Template | null;
  /** One token per distinct set of settings, as for load steps. */
  oauth2: OAuth2Spec | null;
  /** The api_key-in-query parameter's name, masked in evidence. */
  secretQueryName: string | null;
  timeoutMs: number;
  /** The API's effective rules, then the plan-level rules that name it or no API. */
  validations: FunctionalValidation[];
  /**
   * Each rule's expected value as a template (by the index of `validations`), or null when it holds no
   * `{{…}}`: it is expanded before the rule is judged (docs/adr/0029-postman-collections.md).
   */
  expected: (Template | null)[];
  captures: CompiledCapture[];
  /** The most bytes of a response body a call keeps (keptBodyBytes). */
  keptBodyBytes: number;
}

export interface CompiledRun {
  scope: TemplateScope;
  apis: CompiledApi[];
}

/** The rendered request of one call. */
export interface RenderedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Rules judged on the status, the time, the size or the headers: they read no byte of the body. */
const BODILESS_RULES: ReadonlySet<string> = new Set([
  'status_code',
  'response_time',
  'response_size',
  'header_value',
  // UI rules fail on an API call without reading it (runner.ts uiRuleOnCall).
  'element_exists',
  'page_title',
]);

/**
 * How much of a response body a call keeps (docs/adr/0024-memory-bounds.md): the judged limit when a
 * rule or capture reads the body, else only what a failed call's evidence shows. The whole body is read
 * and its size counted either way.
 */
export function keptBodyBytes(
  validations: readonly Pick<FunctionalValidation, 'type' | 'subject'>[],
  captures: readonly { from: string }[],
): number {
  const readsBody =
    validations.some(
      (v) =>
        !BODILESS_RULES.has(v.type) &&
        (v.subject === undefined || v.subject === 'body' || v.subject === 'json' || v.subject === 'xml'),
    ) || captures.some((c) => c.from !== 'header');
  return readsBody ? JUDGED_BODY_LIMIT_BYTES : EVIDENCE_BODY_LIMIT_BYTES;
}

/** A plan-level rule applies to the APIs its api_name names, or to every API when it names none. */
function appliesTo(validation: FunctionalValidation, api: ApiDefinition): boolean {
  const name = validation.api_name?.trim() ?? '';
  return validation.enabled && (name === '' || name === api.name);
}

/**
 * What each call of an API is judged by: its effective rules (no default status rule when test scripts
 * judge it, the plan's or its own, or when the plan's `default_status_rule` is off), then the plan-level
 * rules for it.
 */
export function apiValidations(plan: FunctionalPlan, api: ApiDefinition): FunctionalValidation[] {
  const judgedByScripts = (plan.scripts?.test.length ?? 0) + (api.scripts?.test.length ?? 0) > 0;
  return [
    ...effectiveValidations(api.validations, judgedByScripts, plan.default_status_rule !== false),
    ...plan.validations.filter((v) => appliesTo(v, api)),
  ];
}

/** A rule's name in an API's results: its own, else its type and expected value. */
export function ruleName(validation: FunctionalValidation): string {
  if (validation.name !== '') return validation.name;
  return validation.type === 'schema' ? 'schema' : `${validation.type} ${validation.expected_value}`;
}

export function compileRun(plan: FunctionalPlan): CompiledRun {
  // A functional plan's templates read names as Postman does (call/template.ts TemplateScope).
  const scope = new TemplateScope(true);
  const apis = plan.apis.map((api, index) => compileApi(api, index, plan, scope));
  return { scope, apis };
}

function compileApi(
  api: ApiDefinition,
  index: number,
  plan: FunctionalPlan,
  scope: TemplateScope,
): CompiledApi {
  const auth = effectiveAuthorization(api.authorization);
  // A fragment is never sent; the query parameters follow the URL's own query.
  const urlText = api.url.trim().split('#')[0] ?? '';
  const url = Template.of(urlText, scope);
  const query: [string, string][] = api.params
    .filter((p) => p.name.trim() !== '')
    .map((p) => [p.name.trim(), p.value]);
  appendQuery(url, urlText, query, auth, scope);

  const headers = new HeaderList();
  for (const [name, value] of Object.entries(api.headers)) {
    // The body's length is measured when it is sent; a written one could only disagree with it.
    if (name.trim() !== '' && name.trim().toLowerCase() !== 'content-length') {
      headers.set(name.trim(), Template.of(value, scope));
    }
  }
  const oauth2 = applyAuthorization(auth, headers, scope, FUNCTIONAL_HEADER_NAMES);
  const body = compileBody(api.method, api.body, headers, scope, FUNCTIONAL_HEADER_NAMES);

  const validations = apiValidations(plan, api);
  const captures = (api.captures ?? []).map((c) => compileCapture(c, scope.variableSlot(c.name)));
  return {
    index,
    api,
    method: api.method,
    url,
    headerNames: headers.names,
    headerValues: headers.values,
    body,
    oauth2,
    secretQueryName: auth?.type === 'api_key' && auth.in === 'query' ? auth.keyName : null,
    timeoutMs: api.timeout * 1000,
    validations,
    expected: validations.map((v) => {
      const template = Template.of(v.expected_value, scope);
      return template.constant === null ? template : null;
    }),
    captures,
    keptBodyBytes: keptBodyBytes(validations, captures),
  };
}

/**
 * The API's rules with their expected values expanded by the user's variables; a rule whose expected
 * value holds no template is the compiled one itself (its compiled pattern or path is kept).
 */
export function renderValidations(api: CompiledApi, ctx: RenderContext): FunctionalValidation[] {
  return api.validations.map((v, i) => {
    const template = api.expected[i];
    return template === null || template === undefined ? v : { ...v, expected_value: template.render(ctx) };
  });
}

/** Renders one call's request with the user's variables. */
export function renderRequest(api: CompiledApi, ctx: RenderContext): RenderedRequest {
  const headers: Record<string, string> = {};
  for (let i = 0; i < api.headerNames.length; i++)
    headers[api.headerNames[i]!] = api.headerValues[i]!.render(ctx);
  return { method: api.method, url: api.url.render(ctx), headers, body: api.body?.render(ctx) };
}
