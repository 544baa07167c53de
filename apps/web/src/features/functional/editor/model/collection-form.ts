import type {
  ApiDefinitionInput,
  EventScripts,
  FunctionalPlan,
  FunctionalPlanInput,
  IterationData,
  PlanEnvironment,
  PlanVariable,
} from '@aqa/plan';
import { newId } from '@/features/call-editor';

/**
 * A Postman collection's own fields in the API editor (docs/adr/0029-postman-collections.md): its
 * variables in their three scopes, its scripts (the plan's, and each API's folder and request
 * scripts), its folders, the data file that drives the iterations, and the cookie jar and redirects.
 * Kept as typed and sent back whole, so a plan opened and saved here loses nothing the import carried.
 */

export const SCRIPT_EVENTS = ['prerequest', 'test'] as const;
export type ScriptEvent = (typeof SCRIPT_EVENTS)[number];
export const VARIABLE_SCOPES = ['variables', 'environment', 'globals'] as const;
export type VariableScope = (typeof VARIABLE_SCOPES)[number];

export interface ScriptBlockForm {
  id: string;
  /** Whose script it is: "collection", "folder Orders", "request". */
  origin: string;
  source: string;
}
export type EventScriptsForm = Record<ScriptEvent, ScriptBlockForm[]>;

export interface VariableRow {
  id: string;
  name: string;
  value: string;
}

export interface CollectionForm {
  variables: VariableRow[];
  /** The environment's name; its values are `environment`. Null: the plan has no environment. */
  environmentName: string | null;
  environment: VariableRow[];
  globals: VariableRow[];
  scripts: EventScriptsForm;
  iterationData: IterationData | null;
  /** Undefined: the plan does not say (a plan made here), which runs as off. */
  cookieJar: boolean | undefined;
  followRedirects: boolean | undefined;
  /** Undefined: the plan does not say, which runs as on (an API without rules is judged by status 200). */
  defaultStatusRule: boolean | undefined;
}

export type CollectionOption = 'cookieJar' | 'followRedirects' | 'defaultStatusRule';

/** What a run does with an option the plan does not set (docs/adr/0029-postman-collections.md §3). */
export const COLLECTION_OPTION_DEFAULTS: Readonly<Record<CollectionOption, boolean>> = {
  cookieJar: false,
  followRedirects: false,
  defaultStatusRule: true,
};

/** Which scripts an action edits: the plan's own, or an API's (by its entry id). */
export type ScriptOwner = { plan: true } | { entryId: string };

export type CollectionAction =
  | { type: 'addVariable'; scope: VariableScope }
  | { type: 'setVariable'; scope: VariableScope; rowId: string; patch: Partial<Omit<VariableRow, 'id'>> }
  | { type: 'removeVariable'; scope: VariableScope; rowId: string }
  | { type: 'setEnvironmentName'; name: string | null }
  | { type: 'setOption'; option: CollectionOption; value: boolean }
  | { type: 'setIterationData'; data: IterationData | null }
  | { type: 'setScript'; owner: ScriptOwner; event: ScriptEvent; blockId: string; source: string }
  | { type: 'removeScript'; owner: ScriptOwner; event: ScriptEvent; blockId: string };

export function emptyScripts(): EventScriptsForm {
  return { prerequest: [], test: [] };
}

export function newCollectionForm(): CollectionForm {
  return {
    variables: [],
    environmentName: null,
    environment: [],
    globals: [],
    scripts: emptyScripts(),
    iterationData: null,
    cookieJar: undefined,
    followRedirects: undefined,
    defaultStatusRule: undefined,
  };
}

const rowsOfVariables = (list: readonly PlanVariable[] | undefined): VariableRow[] =>
  (list ?? []).map(({ name, value }) => ({ id: newId('var'), name, value }));

export function scriptsFormOf(scripts: EventScripts | undefined): EventScriptsForm {
  return {
    prerequest: (scripts?.prerequest ?? []).map((b) => ({ id: newId('script'), ...b })),
    test: (scripts?.test ?? []).map((b) => ({ id: newId('script'), ...b })),
  };
}

export function collectionFormOf(
  plan: Pick<
    FunctionalPlan,
    | 'variables'
    | 'environment'
    | 'globals'
    | 'scripts'
    | 'iteration_data'
    | 'cookie_jar'
    | 'follow_redirects'
    | 'default_status_rule'
  >,
): CollectionForm {
  return {
    variables: rowsOfVariables(plan.variables),
    environmentName: plan.environment?.name ?? null,
    environment: rowsOfVariables(plan.environment?.values),
    globals: rowsOfVariables(plan.globals),
    scripts: scriptsFormOf(plan.scripts),
    iterationData: plan.iteration_data ?? null,
    cookieJar: plan.cookie_jar,
    followRedirects: plan.follow_redirects,
    defaultStatusRule: plan.default_status_rule,
  };
}

/** Whether the plan carries anything of a collection: the editor shows its card then. */
export function hasCollection(form: CollectionForm): boolean {
  return (
    form.variables.length > 0 ||
    form.environmentName !== null ||
    form.globals.length > 0 ||
    scriptCount(form.scripts) > 0 ||
    form.iterationData !== null ||
    form.cookieJar !== undefined ||
    form.followRedirects !== undefined ||
    form.defaultStatusRule !== undefined
  );
}

export function scriptCount(scripts: EventScriptsForm | undefined): number {
  return scripts === undefined ? 0 : scripts.prerequest.length + scripts.test.length;
}

/** A variable row left wholly blank is not sent; a half-filled one is, so the model names what is missing. */
const sentRows = (rows: readonly VariableRow[]): { name: string; value: string }[] =>
  rows.filter((r) => r.name.trim() !== '' || r.value !== '').map(({ name, value }) => ({ name, value }));

export function scriptsBodyOf(scripts: EventScriptsForm | undefined): EventScripts | undefined {
  if (scripts === undefined || scriptCount(scripts) === 0) return undefined;
  const blocks = (list: ScriptBlockForm[]) => list.map(({ origin, source }) => ({ origin, source }));
  return { prerequest: blocks(scripts.prerequest), test: blocks(scripts.test) };
}

/** The plan's collection fields as the model reads them; each only when it holds something. */
export function collectionBodyOf(form: CollectionForm): Partial<FunctionalPlanInput> {
  const variables = sentRows(form.variables);
  const globals = sentRows(form.globals);
  const scripts = scriptsBodyOf(form.scripts);
  const environment: PlanEnvironment | undefined =
    form.environmentName === null
      ? undefined
      : { name: form.environmentName, values: sentRows(form.environment) };
  return {
    ...(variables.length > 0 ? { variables } : {}),
    ...(environment === undefined ? {} : { environment }),
    ...(globals.length > 0 ? { globals } : {}),
    ...(scripts === undefined ? {} : { scripts }),
    ...(form.iterationData === null ? {} : { iteration_data: form.iterationData }),
    ...(form.cookieJar === undefined ? {} : { cookie_jar: form.cookieJar }),
    ...(form.followRedirects === undefined ? {} : { follow_redirects: form.followRedirects }),
    ...(form.defaultStatusRule === undefined ? {} : { default_status_rule: form.defaultStatusRule }),
  };
}

/** An API's folder and scripts as the model reads them. */
export function apiCollectionBodyOf(api: {
  group?: string;
  scripts?: EventScriptsForm;
}): Pick<ApiDefinitionInput, 'group' | 'scripts'> {
  const scripts = scriptsBodyOf(api.scripts);
  return {
    ...(api.group === undefined || api.group === '' ? {} : { group: api.group }),
    ...(scripts === undefined ? {} : { scripts }),
  };
}

const scopeRows = (form: CollectionForm, scope: VariableScope): VariableRow[] => form[scope];

export function editScripts(
  scripts: EventScriptsForm,
  action: Extract<CollectionAction, { type: 'setScript' | 'removeScript' }>,
): EventScriptsForm {
  const list = scripts[action.event];
  const next =
    action.type === 'removeScript'
      ? list.filter((b) => b.id !== action.blockId)
      : list.map((b) => (b.id === action.blockId ? { ...b, source: action.source } : b));
  return { ...scripts, [action.event]: next };
}

/** The collection's own edits; an API's scripts are edited by the form's reducer with editScripts. */
export function collectionReducer(form: CollectionForm, action: CollectionAction): CollectionForm {
  switch (action.type) {
    case 'addVariable':
      return {
        ...form,
        [action.scope]: [...scopeRows(form, action.scope), { id: newId('var'), name: '', value: '' }],
      };
    case 'setVariable':
      return {
        ...form,
        [action.scope]: scopeRows(form, action.scope).map((r) =>
          r.id === action.rowId ? { ...r, ...action.patch } : r,
        ),
      };
    case 'removeVariable':
      return { ...form, [action.scope]: scopeRows(form, action.scope).filter((r) => r.id !== action.rowId) };
    case 'setEnvironmentName':
      return action.name === null
        ? { ...form, environmentName: null, environment: [] }
        : { ...form, environmentName: action.name };
    case 'setOption':
      return { ...form, [action.option]: action.value };
    case 'setIterationData':
      return { ...form, iterationData: action.data };
    case 'setScript':
    case 'removeScript':
      return 'plan' in action.owner ? { ...form, scripts: editScripts(form.scripts, action) } : form;
  }
}

/**
 * An imported collection added to what the form holds: its variables and scripts after the form's,
 * its environment, data file and options where it has them (an import never empties what is there).
 */
export function mergedCollection(current: CollectionForm, imported: CollectionForm): CollectionForm {
  return {
    variables: [...current.variables, ...imported.variables],
    environmentName: imported.environmentName ?? current.environmentName,
    environment: imported.environmentName === null ? current.environment : imported.environment,
    globals: [...current.globals, ...imported.globals],
    scripts: {
      prerequest: [...current.scripts.prerequest, ...imported.scripts.prerequest],
      test: [...current.scripts.test, ...imported.scripts.test],
    },
    iterationData: imported.iterationData ?? current.iterationData,
    cookieJar: imported.cookieJar ?? current.cookieJar,
    followRedirects: imported.followRedirects ?? current.followRedirects,
    defaultStatusRule: imported.defaultStatusRule ?? current.defaultStatusRule,
  };
}
