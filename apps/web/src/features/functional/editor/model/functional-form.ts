import {
  FUNCTIONAL_DEFAULTS,
  newFunctionalPlan,
  type ApiDefinitionInput,
  type CaptureSchema,
  type FunctionalPlan,
  type FunctionalPlanInput,
  type FunctionalValidationType,
  type HttpMethod,
  type ValidationSubject,
} from '@aqa/plan';
import type { z } from 'zod';
import {
  authFormOf,
  authorizationToModel,
  createEntry,
  isReplacedAuthorizationHeader,
  liftAuthorizationHeader,
  movedWithin,
  newId,
  rowsOf,
  withCopyAfter,
  entryFormReducer,
  type EntryForm,
  type EntryFormAction,
  type KeyValueRow,
} from '@/features/call-editor';
import {
  apiCollectionBodyOf,
  collectionBodyOf,
  collectionFormOf,
  collectionReducer,
  editScripts,
  newCollectionForm,
  scriptsFormOf,
  type CollectionAction,
  type CollectionForm,
  type EventScriptsForm,
} from './collection-form';
import {
  actionFormOf,
  actionOfForm,
  copyActionForms,
  uiActionsReducer,
  type UiActionForm,
  type UiActionsEdit,
} from '../../ui-editor/model/action-form';

/**
 * The functional URL input form (docs/reference/02-running.md §2 "Functional URL Input screen") as plain
 * state and a pure reducer. Values are kept as typed; `planBodyOf` turns the form into the model's input
 * and FunctionalPlanSchema alone judges it (docs/design.md §9: one schema). Each API keeps its call in the
 * call editor's entry shape (@/features/call-editor), so the shared header, parameter and authorization
 * editors and the call's reducer work on it unchanged.
 */

type CaptureFrom = z.input<typeof CaptureSchema>['from'];

export interface RuleForm {
  /** Stable across edits (React key); sent as the validation's id. */
  id: string;
  name: string;
  type: FunctionalValidationType;
  expected_value: string;
  description: string;
  enabled: boolean;
  /**
   * What a read script's or a converted performance plan's rule adds (docs/call-core.md "A performance
   * plan's assertion"): the screen has no control for them, shows them, and saves them unchanged.
   */
  negate?: boolean;
  subject?: ValidationSubject;
  path?: string;
}

/**
 * A rule's fields as the model writes them: negate, subject and path only when it has them, so a rule
 * saves as it was read.
 */
export function ruleFields(rule: Omit<RuleForm, 'id'>): Omit<RuleForm, 'id'> {
  return {
    name: rule.name,
    type: rule.type,
    expected_value: rule.expected_value,
    description: rule.description,
    enabled: rule.enabled,
    ...(rule.negate === undefined ? {} : { negate: rule.negate }),
    ...(rule.subject === undefined ? {} : { subject: rule.subject }),
    ...(rule.path === undefined ? {} : { path: rule.path }),
  };
}

export interface CaptureForm {
  id: string;
  name: string;
  from: CaptureFrom;
  expression: string;
}

export interface FunctionalApiForm {
  /** The call: name, URL, method, headers, parameters, authorization, body (payload) and timeout (as typed). */
  entry: EntryForm;
  description: string;
  rules: RuleForm[];
  captures: CaptureForm[];
  /** A Postman item's folder ("Orders / Admin") and its folder and request scripts (collection-form.ts). */
  group?: string;
  scripts?: EventScriptsForm;
  /**
   * A UI step's actions (docs/adr/0030-recorded-ui-tests.md §1, §4): a recorded test's commands and the
   * steps added in the UI editor; one left untouched is saved as it was read (action-form.ts).
   */
  actions?: UiActionForm[];
}

export interface FunctionalForm {
  testName: string;
  description: string;
  concurrentUsers: string;
  iterations: string;
  rampUp: string;
  duration: string;
  thinkTime: string;
  apis: FunctionalApiForm[];
  /** A Postman collection's variables, scripts, data file and options (collection-form.ts). */
  collection: CollectionForm;
}

/** The plan settings and the number fields the form edits as text. */
export type SettingField = Exclude<keyof FunctionalForm, 'apis' | 'collection'>;

export function newApiForm(): FunctionalApiForm {
  return {
    entry: createEntry({ method: FUNCTIONAL_DEFAULTS.method, timeout: String(FUNCTIONAL_DEFAULTS.timeout) }),
    description: '',
    rules: [],
    captures: [],
  };
}

/** A new plan with the defaults of docs/reference/02-running.md §9 and no APIs ('No APIs configured'). */
export function newFunctionalForm(): FunctionalForm {
  return {
    testName: '',
    description: '',
    concurrentUsers: String(FUNCTIONAL_DEFAULTS.concurrent_users),
    iterations: String(FUNCTIONAL_DEFAULTS.iterations),
    rampUp: String(FUNCTIONAL_DEFAULTS.ramp_up_time),
    duration: String(FUNCTIONAL_DEFAULTS.test_duration),
    thinkTime: String(FUNCTIONAL_DEFAULTS.think_time),
    apis: [],
    collection: newCollectionForm(),
  };
}

export type FunctionalFormAction =
  | { type: 'load'; form: FunctionalForm }
  | { type: 'setSetting'; field: SettingField; value: string }
  | { type: 'addApi'; api: FunctionalApiForm }
  | { type: 'appendApis'; apis: FunctionalApiForm[] }
  | { type: 'removeApi'; entryId: string }
  | { type: 'duplicateApi'; entryId: string }
  | { type: 'moveApi'; from: number; to: number }
  /** An edit of the call itself, by the performance editor's reducer. */
  | { type: 'entry'; action: EntryFormAction }
  | { type: 'setApiDescription'; entryId: string; value: string }
  | { type: 'addRule'; entryId: string; rule: Omit<RuleForm, 'id' | 'name' | 'enabled'> }
  | { type: 'toggleRule'; entryId: string; ruleId: string; enabled: boolean }
  | { type: 'removeRule'; entryId: string; ruleId: string }
  | { type: 'addCapture'; entryId: string }
  | { type: 'setCapture'; entryId: string; captureId: string; patch: Partial<Omit<CaptureForm, 'id'>> }
  | { type: 'removeCapture'; entryId: string; captureId: string }
  /** An edit of a UI test's action steps (action-form.ts). */
  | { type: 'uiActions'; entryId: string; edit: UiActionsEdit }
  /** An imported collection's variables, scripts, data file and options replace the form's (collection-form.ts). */
  | { type: 'setCollection'; collection: CollectionForm }
  | CollectionAction;

function mapApi(
  form: FunctionalForm,
  entryId: string,
  change: (api: FunctionalApiForm) => FunctionalApiForm,
): FunctionalForm {
  return {
    ...form,
    apis: form.apis.map((api) => (api.entry.id === entryId ? change(api) : api)),
  };
}

/** A copy of an API with fresh ids, so its rows and rules stay apart from the original's. */
function copyApi(api: FunctionalApiForm): FunctionalApiForm {
  const rows = (list: KeyValueRow[]) => list.map((row) => ({ ...row, id: newId('row') }));
  return {
    entry: {
      ...api.entry,
      id: newId('api'),
      name: api.entry.name.trim() ? `${api.entry.name.trim()} (copy)`.slice(0, 200) : '',
      parameters: rows(api.entry.parameters),
      headers: rows(api.entry.headers),
      authorization: { ...api.entry.authorization },
    },
    description: api.description,
    rules: api.rules.map((rule) => ({ ...rule, id: newId('rule') })),
    captures: api.captures.map((capture) => ({ ...capture, id: newId('capture') })),
    ...(api.group === undefined ? {} : { group: api.group }),
    ...(api.actions === undefined ? {} : { actions: copyActionForms(api.actions) }),
    ...(api.scripts === undefined
      ? {}
      : {
          scripts: {
            prerequest: api.scripts.prerequest.map((b) => ({ ...b, id: newId('script') })),
            test: api.scripts.test.map((b) => ({ ...b, id: newId('script') })),
          },
        }),
  };
}

const NUMBERED_RULE = /^Validation \d+$/;

/**
 * After a delete, the rules named by number are numbered by their place again, so they never read
 * "Validation 1, Validation 3" (issue 24); a rule named in other words keeps its name.
 */
export function renumberedRules<Rule extends { name: string }>(rules: readonly Rule[]): Rule[] {
  return rules.map((rule, index) =>
    NUMBERED_RULE.test(rule.name) && rule.name !== `Validation ${index + 1}`
      ? { ...rule, name: `Validation ${index + 1}` }
      : rule,
  );
}

/** "Validation 1", "Validation 2", … the first number not taken. */
function nextRuleName(rules: readonly RuleForm[]): string {
  const taken = new Set(rules.map((rule) => rule.name));
  let n = rules.length + 1;
  while (taken.has(`Validation ${n}`)) n += 1;
  return `Validation ${n}`;
}

export function functionalFormReducer(form: FunctionalForm, action: FunctionalFormAction): FunctionalForm {
  switch (action.type) {
    case 'load':
      return action.form;
    case 'setSetting':
      return { ...form, [action.field]: action.value };
    case 'addApi':
      return { ...form, apis: [...form.apis, action.api] };
    case 'appendApis':
      return { ...form, apis: [...form.apis, ...action.apis] };
    case 'removeApi':
      return { ...form, apis: form.apis.filter((api) => api.entry.id !== action.entryId) };
    case 'duplicateApi': {
      const apis = withCopyAfter(form.apis, (api) => api.entry.id === action.entryId, copyApi);
      return apis ? { ...form, apis } : form;
    }
    case 'moveApi': {
      const apis = movedWithin(form.apis, action.from, action.to);
      return apis ? { ...form, apis } : form;
    }
    case 'entry':
      return mapApi(form, action.action.entryId, (api) => ({
        ...api,
        entry: entryFormReducer(api.entry, action.action),
      }));
    case 'setApiDescription':
      return mapApi(form, action.entryId, (api) => ({ ...api, description: action.value }));
    case 'addRule': {
      // docs/reference/02-running.md §2: a rule is added only with an expected value.
      if (action.rule.expected_value.trim() === '') return form;
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        rules: [
          ...api.rules,
          {
            id: newId('rule'),
            name: nextRuleName(api.rules),
            type: action.rule.type,
            expected_value: action.rule.expected_value,
            description: action.rule.description.trim(),
            enabled: true,
          },
        ],
      }));
    }
    case 'toggleRule':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        rules: api.rules.map((rule) =>
          rule.id === action.ruleId ? { ...rule, enabled: action.enabled } : rule,
        ),
      }));
    case 'removeRule':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        rules: renumberedRules(api.rules.filter((rule) => rule.id !== action.ruleId)),
      }));
    case 'addCapture':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        captures: [...api.captures, { id: newId('capture'), name: '', from: 'json_path', expression: '' }],
      }));
    case 'setCapture':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        captures: api.captures.map((capture) =>
          capture.id === action.captureId ? { ...capture, ...action.patch } : capture,
        ),
      }));
    case 'removeCapture':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        captures: api.captures.filter((capture) => capture.id !== action.captureId),
      }));
    case 'uiActions':
      return mapApi(form, action.entryId, (api) => ({
        ...api,
        actions: uiActionsReducer(api.actions ?? [], action.edit),
      }));
    case 'setCollection':
      return { ...form, collection: action.collection };
    case 'setScript':
    case 'removeScript': {
      const { owner } = action;
      if ('entryId' in owner)
        return mapApi(form, owner.entryId, (api) =>
          api.scripts === undefined ? api : { ...api, scripts: editScripts(api.scripts, action) },
        );
      return { ...form, collection: collectionReducer(form.collection, action) };
    }
    default:
      return { ...form, collection: collectionReducer(form.collection, action) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The form → the model's input.

/** The shared row editors say so: a row with a blank name or value is not sent. */
function isBlankRow(row: KeyValueRow): boolean {
  return row.name.trim() === '' || row.value.trim() === '';
}

/** A captures row left wholly blank is not sent; a half-filled one is, so the model names what is missing. */
export function isBlankCapture(capture: CaptureForm): boolean {
  return capture.name.trim() === '' && capture.expression.trim() === '';
}

/** One API as the model reads it: headers as a map, the body only for a method that sends one. */
function apiDefinitionOf(api: FunctionalApiForm): ApiDefinitionInput {
  const { entry } = api;
  const headers: Record<string, string> = {};
  for (const row of entry.headers) {
    // The Authorization tab wins over a header row of that name (docs/reference/01-authoring.md §5).
    if (isBlankRow(row) || isReplacedAuthorizationHeader(row, entry.authorization)) continue;
    headers[row.name.trim()] = row.value;
  }
  const captures = api.captures.filter((capture) => !isBlankCapture(capture));
  return {
    id: entry.id,
    name: entry.name,
    url: entry.url,
    method: entry.method,
    headers,
    body: entry.payload,
    params: entry.parameters.filter((row) => !isBlankRow(row)).map(({ name, value }) => ({ name, value })),
    authorization: authorizationToModel(entry.authorization),
    validations: api.rules.map((rule) => ({ id: rule.id, ...ruleFields(rule) })),
    description: api.description,
    timeout: entry.timeout,
    ...(captures.length > 0
      ? { captures: captures.map(({ name, from, expression }) => ({ name, from, expression })) }
      : {}),
    ...apiCollectionBodyOf(api),
    ...(api.actions === undefined || api.actions.length === 0
      ? {}
      : { actions: api.actions.map(actionOfForm) }),
  };
}

/** A number field: blank falls back in the model; digits are sent as a number, anything else as typed. */
function numberField(text: string): number | string {
  const trimmed = text.trim();
  return /^[0-9]{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The screens that edit a list of calls: the API screen's url_input and the UI screen's ui_url_input. */
export type ListSource = 'url_input' | 'ui_url_input';

/**
 * What each list screen's plan says it is (docs/reference/02-running.md §7): the URL screen's source
 * url_input, test type functional, Taurus; the UI screen's ui_url_input, test type ui, Selenium (its
 * pages are run in a browser) and no source page.
 */
function sourceFields(source: ListSource): Partial<FunctionalPlanInput> {
  const { test_type } = newFunctionalPlan(source);
  return source === 'ui_url_input'
    ? { test_type, source, test_framework: 'selenium' }
    : { test_type, source, source_page: 'functional-url-input', test_framework: 'taurus' };
}

/** The plan a list screen saves and runs: the URL screen's by default, the UI screen's with its source. */
export function planBodyOf(form: FunctionalForm, source: ListSource = 'url_input'): FunctionalPlanInput {
  return {
    test_name: form.testName,
    description: form.description,
    apis: form.apis.map(apiDefinitionOf),
    concurrent_users: numberField(form.concurrentUsers),
    iterations: numberField(form.iterations),
    ramp_up_time: numberField(form.rampUp),
    test_duration: numberField(form.duration),
    think_time: numberField(form.thinkTime),
    ...collectionBodyOf(form.collection),
    ...sourceFields(source),
  };
}

// ---------------------------------------------------------------------------------------------------------
// A saved plan → the form.

type SavedApi = FunctionalPlan['apis'][number];

/** An API of a saved or imported plan as an editor card; a Bearer or Basic header moves to the Authorization tab. */
export function apiFormOf(api: SavedApi): FunctionalApiForm {
  const { headers, auth } = liftAuthorizationHeader(
    Object.entries(api.headers).map(([name, value]) => ({ name, value })),
    authFormOf(api.authorization),
  );
  const method: HttpMethod = api.method;
  return {
    entry: createEntry({
      name: api.name,
      url: api.url,
      method,
      headers: rowsOf(headers),
      parameters: rowsOf(api.params),
      authorization: auth,
      payload: api.body,
      timeout: String(api.timeout),
    }),
    description: api.description,
    rules: api.validations.map((rule) => ({ id: newId('rule'), ...ruleFields(rule) })),
    captures: (api.captures ?? []).map((capture) => ({ id: newId('capture'), ...capture })),
    ...(api.group === undefined ? {} : { group: api.group }),
    ...(api.scripts === undefined ? {} : { scripts: scriptsFormOf(api.scripts) }),
    ...(api.actions === undefined ? {} : { actions: api.actions.map(actionFormOf) }),
  };
}

export function formOfPlan(plan: FunctionalPlan): FunctionalForm {
  return {
    testName: plan.test_name,
    description: plan.description,
    concurrentUsers: String(plan.concurrent_users),
    iterations: String(plan.iterations),
    rampUp: String(plan.ramp_up_time),
    duration: String(plan.test_duration),
    thinkTime: String(plan.think_time),
    apis: plan.apis.map(apiFormOf),
    collection: collectionFormOf(plan),
  };
}
