import {
  DEFAULT_DURATION_MIN,
  DEFAULT_TOOL,
  DEFAULT_USERS,
  type DataSource,
  type HttpMethod,
  type LoadProfile,
  type PerfPlan,
  type Preset,
  type Tool,
  type UrlEntry,
} from '@aqa/plan';
import {
  authFormOf,
  copyEntry,
  createEntry,
  defaultTab,
  entryFormReducer,
  liftAuthorizationHeader,
  movedWithin,
  newId,
  rowsOf,
  withCopyAfter,
  type EntryForm,
  type EntryFormAction,
} from '@/features/call-editor';
import { presetProfileForm, profileFormOf, withBreakpointThresholds, type ProfileForm } from './profile-form';

/**
 * The URL-input form (docs/reference/01-authoring.md §2 "Performance: URL input") as plain state and a pure reducer, so that the
 * list rules — add, move, delete only while more than one entry remains — hold wherever the form is
 * changed from and can be tested without rendering. Each entry is a call of the shared call editor
 * (@/features/call-editor), whose reducer applies the edits of one call. Values are kept as typed (text);
 * `form-to-plan.ts` turns them into the model.
 */

/** The methods of the URL screen (docs/reference/01-authoring.md §9); HEAD and OPTIONS are kept when a loaded plan has them. */
export const FORM_METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
] as const satisfies readonly HttpMethod[];

/** Tools in the order and spelling of the plan form (docs/reference/01-authoring.md §9). */
export const TOOL_OPTIONS: readonly { value: Tool; label: string }[] = [
  { value: 'jmeter', label: 'JMeter' },
  { value: 'k6', label: 'K6' },
  { value: 'locust', label: 'Locust' },
  { value: 'taurus', label: 'Taurus' },
  { value: 'soapui', label: 'SoapUI' },
];

/** The script-upload screen offers four tools (docs/reference/01-authoring.md §9); a loaded plan keeps its own. */
export const SCRIPT_TOOL_OPTIONS: readonly { value: Tool; label: string }[] = TOOL_OPTIONS.filter(
  (option) => option.value !== 'soapui',
);

/** The script-upload screen also offers HEAD and OPTIONS (docs/reference/01-authoring.md §9). */
export const SCRIPT_METHODS = [...FORM_METHODS, 'HEAD', 'OPTIONS'] as const satisfies readonly HttpMethod[];

export function toolLabel(tool: Tool): string {
  return TOOL_OPTIONS.find((option) => option.value === tool)?.label ?? tool;
}

export interface PlanForm {
  name: string;
  tool: Tool;
  /** As typed; blank falls back to the default. */
  concurrentUsers: string;
  /** Minutes, as typed; blank falls back to the default. */
  duration: string;
  entries: EntryForm[];
  /** Kept from a loaded plan and sent back unchanged. */
  description: string;
  sourcePage: PerfPlan['source_page'];
  testType: string;
  /** Pass/fail criteria: not edited on these screens, kept from a loaded plan and sent back unchanged. */
  thresholds: string[];
  /**
   * Criteria that stop the run while it goes, one expression a line as typed (docs/adr/0027-load-profiles.md,
   * "Abort criteria"); the Breakpoint preset adds its own.
   */
  abortThresholds: string[];
  /**
   * The plan's load profile as typed (docs/adr/0027-load-profiles.md), or null for a plan without one,
   * which runs Concurrent Users for Duration as before.
   */
  loadProfile: ProfileForm | null;
  /**
   * Test data (docs/adr/0027-load-profiles.md "Test data"): the CSV files by name and the sources binding
   * them, added and removed in the Test data section (TestDataEditor); null for a plan without any.
   */
  dataFiles: Record<string, string> | null;
  dataSources: DataSource[] | null;
  /**
   * The plan's flows as typed (docs/adr/0027-load-profiles.md "3. Flows"): empty for a plan without flows, which
   * runs every call in each iteration. Each entry names its flow (`EntryForm.flow`).
   */
  flows: FlowForm[];
}

/** One flow row: its name and weight as typed. */
export interface FlowForm {
  id: string;
  name: string;
  weight: string;
  /** The name the calls use for this flow: the last name typed that was not blank. */
  callsName: string;
}

/**
 * Where the form keeps each field of a saved plan (null: not the form's). Typed over every key of the
 * model, so a field added to PerfPlanSchema does not compile until it is placed here, and the seeded round
 * trip (plan-form-round-trip.test.ts) proves the form sends it back.
 */
export const PLAN_FIELDS_IN_FORM = {
  name: 'name',
  description: 'description',
  tool: 'tool',
  concurrent_users: 'concurrentUsers',
  duration: 'duration',
  urls: 'entries',
  thresholds: 'thresholds',
  abort_thresholds: 'abortThresholds',
  load_profile: 'loadProfile',
  flows: 'flows',
  source_page: 'sourcePage',
  test_type: 'testType',
  // The uploaded script is edited beside the form (usePlanEditor's script state), not in it.
  script: null,
  data_files: 'dataFiles',
  data_sources: 'dataSources',
  // Set by the server or by the model itself.
  schema_version: null,
  id: null,
  user_email: null,
  // Kept by usePlanEditor beside the form and sent with each update (docs/reference/01-authoring.md §7 "Plan versions").
  version: null,
  created_at: null,
  updated_at: null,
} as const satisfies Record<keyof PerfPlan, keyof PlanForm | null>;

export function createPlanForm(sourcePage: PerfPlan['source_page'] = 'url-input'): PlanForm {
  return {
    name: '',
    tool: DEFAULT_TOOL,
    concurrentUsers: String(DEFAULT_USERS),
    duration: String(DEFAULT_DURATION_MIN),
    entries: [createEntry()],
    description: '',
    sourcePage,
    testType: '',
    thresholds: [],
    abortThresholds: [],
    loadProfile: null,
    dataFiles: null,
    dataSources: null,
    flows: [],
  };
}

export type PlanSettingField = 'name' | 'tool' | 'concurrentUsers' | 'duration';

export type PlanFormAction =
  | { type: 'load'; form: PlanForm }
  | { type: 'setSetting'; field: 'name' | 'concurrentUsers' | 'duration'; value: string }
  | { type: 'setTool'; tool: Tool }
  | { type: 'addEntry'; entry: EntryForm }
  | { type: 'removeEntry'; entryId: string }
  | { type: 'duplicateEntry'; entryId: string }
  | { type: 'moveEntry'; from: number; to: number }
  | { type: 'setProfile'; profile: ProfileForm | null }
  /** Test data: attach (or replace) a CSV file, with a source reading it from its first line. */
  | { type: 'attachDataFile'; name: string; text: string }
  | { type: 'removeDataFile'; name: string }
  | {
      type: 'setDataSource';
      path: string;
      patch: Partial<Pick<DataSource, 'loop' | 'random_order' | 'share'>>;
    }
  /** The abort thresholds as typed, one a line (blank lines are not sent: form-to-plan.ts). */
  | { type: 'setAbortThresholds'; lines: string[] }
  | { type: 'applyPreset'; preset: Preset; peak: number; lengthMs: number }
  | { type: 'addFlows'; names: string[] }
  | { type: 'setFlow'; flowId: string; field: 'name' | 'weight'; value: string }
  | { type: 'removeFlow'; flowId: string }
  | EntryFormAction;

/** Whether an entry may be deleted: only while more than one remains (docs/reference/01-authoring.md §2). */
export function canRemoveEntry(entryCount: number): boolean {
  return entryCount > 1;
}

function mapEntry(form: PlanForm, entryId: string, change: (entry: EntryForm) => EntryForm): PlanForm {
  let changed = false;
  const entries = form.entries.map((entry) => {
    if (entry.id !== entryId) return entry;
    const next = change(entry);
    if (next !== entry) changed = true;
    return next;
  });
  return changed ? { ...form, entries } : form;
}

/**
 * The form with a CSV file attached (docs/adr/0027-load-profiles.md "Test data"): a file of the same
 * name is replaced and keeps its source's options; a new one gets a source with the defaults.
 */
function withDataFile(form: PlanForm, name: string, text: string): PlanForm {
  const sources = form.dataSources ?? [];
  const source = sources.some((s) => s.path === name)
    ? sources
    : [...sources, { path: name, loop: true, random_order: false, share: 'all' as const }];
  return { ...form, dataFiles: { ...form.dataFiles, [name]: text }, dataSources: source };
}

/** The form without a data file and the sources reading it; none left, the plan has no test data. */
function withoutDataFile(form: PlanForm, name: string): PlanForm {
  const files = Object.fromEntries(Object.entries(form.dataFiles ?? {}).filter(([file]) => file !== name));
  const sources = (form.dataSources ?? []).filter((source) => source.path !== name);
  return {
    ...form,
    dataFiles: Object.keys(files).length > 0 ? files : null,
    dataSources: sources.length > 0 ? sources : null,
  };
}

/** A new flow row of weight 1 (docs/adr/0027-load-profiles.md "Flows"). */
function newFlowRow(name = ''): FlowForm {
  return { id: newId('flow'), name, weight: '1', callsName: name.trim() };
}

/** Names the calls give that no flow row lists, in the calls' order, each once. */
export function unlistedFlowNames(form: PlanForm): string[] {
  const listed = new Set(form.flows.map((flow) => flow.name.trim()));
  const names = form.entries.map((entry) => entry.flow.trim()).filter((name) => name !== '');
  return [...new Set(names)].filter((name) => !listed.has(name));
}

/**
 * A flow's name or weight as typed. A renamed flow takes the calls that named it along: the calls'
 * name is the last one typed that was not blank, so clearing the field and typing anew keeps them.
 */
function setFlow(form: PlanForm, flowId: string, field: 'name' | 'weight', value: string): PlanForm {
  const old = form.flows.find((flow) => flow.id === flowId);
  if (!old) return form;
  if (field === 'weight') {
    return {
      ...form,
      flows: form.flows.map((flow) => (flow.id === flowId ? { ...flow, weight: value } : flow)),
    };
  }
  const name = value.trim();
  const from = old.callsName;
  const shared = form.flows.some((flow) => flow.id !== flowId && flow.callsName === from);
  const follow = name !== '' && from !== '' && !shared;
  const flows = form.flows.map((flow) =>
    flow.id === flowId ? { ...flow, name: value, callsName: name === '' ? flow.callsName : name } : flow,
  );
  const entries = follow
    ? form.entries.map((entry) => (entry.flow.trim() === from ? { ...entry, flow: name } : entry))
    : form.entries;
  return { ...form, flows, entries };
}

/** Pure: returns the same object when an action is refused (last entry, last row, blank validation). */
export function planFormReducer(form: PlanForm, action: PlanFormAction): PlanForm {
  switch (action.type) {
    case 'load':
      return action.form;
    case 'setSetting':
      return { ...form, [action.field]: action.value };
    case 'setTool':
      return { ...form, tool: action.tool };
    case 'addEntry':
      return { ...form, entries: [...form.entries, action.entry] };
    case 'removeEntry':
      if (!canRemoveEntry(form.entries.length) || !form.entries.some((entry) => entry.id === action.entryId))
        return form;
      return { ...form, entries: form.entries.filter((entry) => entry.id !== action.entryId) };
    case 'duplicateEntry': {
      const entries = withCopyAfter(form.entries, (entry) => entry.id === action.entryId, copyEntry);
      return entries ? { ...form, entries } : form;
    }
    case 'moveEntry': {
      const entries = movedWithin(form.entries, action.from, action.to);
      return entries ? { ...form, entries } : form;
    }
    case 'setProfile':
      return { ...form, loadProfile: action.profile };
    case 'attachDataFile':
      return withDataFile(form, action.name, action.text);
    case 'removeDataFile':
      return withoutDataFile(form, action.name);
    case 'setDataSource':
      return {
        ...form,
        dataSources: (form.dataSources ?? []).map((source) =>
          source.path === action.path ? { ...source, ...action.patch } : source,
        ),
      };
    case 'setAbortThresholds':
      return { ...form, abortThresholds: action.lines };
    case 'applyPreset':
      return {
        ...form,
        loadProfile: presetProfileForm(action.preset, action.peak, action.lengthMs),
        // Breakpoint's run stops when errors pile up or answers slow down (docs/adr/0027-load-profiles.md, "Abort criteria").
        abortThresholds:
          action.preset === 'breakpoint'
            ? withBreakpointThresholds(form.abortThresholds)
            : form.abortThresholds,
      };
    case 'addFlows':
      return { ...form, flows: [...form.flows, ...action.names.map(newFlowRow)] };
    case 'setFlow':
      return setFlow(form, action.flowId, action.field, action.value);
    case 'removeFlow':
      return { ...form, flows: form.flows.filter((flow) => flow.id !== action.flowId) };
    default:
      return mapEntry(form, action.entryId, (entry) => entryFormReducer(entry, action));
  }
}

// ---------------------------------------------------------------------------------------------------------
// A saved plan → the form.

export function entryFromModel(entry: UrlEntry): EntryForm {
  const lifted = liftAuthorizationHeader(entry.headers, authFormOf(entry.authorization));
  return createEntry({
    name: entry.name ?? '',
    method: entry.method,
    url: entry.url,
    parameters: rowsOf(entry.parameters.map((p) => ({ name: p.key, value: p.value }))),
    headers: rowsOf(lifted.headers),
    authorization: lifted.auth,
    payload: entry.payload,
    extractType: entry.extractType,
    extractName: entry.extractName,
    extractValue: entry.extractValue,
    assertionType: entry.assertionType,
    assertionPath: entry.assertionPath,
    assertionOperator: entry.assertionOperator,
    assertionValue: entry.assertionValue,
    thinkTime: entry.thinkTime,
    transactionRate: entry.transactionRate === '' ? '' : String(entry.transactionRate),
    timeout: String(entry.timeout),
    validations: entry.validations.map((item) => ({ ...item })),
    flow: entry.flow ?? '',
    tab: defaultTab(entry.method),
  });
}

export function formFromPlan(plan: PerfPlan): PlanForm {
  return {
    name: plan.name,
    tool: plan.tool,
    concurrentUsers: String(plan.concurrent_users),
    duration: String(plan.duration),
    entries: plan.urls.length > 0 ? plan.urls.map(entryFromModel) : [createEntry()],
    description: plan.description ?? '',
    sourcePage: plan.source_page,
    testType: plan.test_type ?? '',
    thresholds: [...(plan.thresholds ?? [])],
    abortThresholds: [...(plan.abort_thresholds ?? [])],
    loadProfile: plan.load_profile ? profileFormOf(plan.load_profile) : null,
    dataFiles: plan.data_files ? { ...plan.data_files } : null,
    dataSources: plan.data_sources ? plan.data_sources.map((source) => ({ ...source })) : null,
    flows: (plan.flows ?? []).map((flow) => ({ ...newFlowRow(flow.name), weight: String(flow.weight) })),
  };
}

/**
 * What an imported file says of the plan besides its calls (a Taurus configuration's users, minutes,
 * load profile and data sources: docs/adr/0027-load-profiles.md "Importers"), put into the form: the
 * file's load replaces the form's; its data replaces the form's test data when it has any.
 */
export interface ImportedPlanSettings {
  concurrent_users: number;
  duration: number;
  load_profile?: LoadProfile | undefined;
  data_sources?: DataSource[] | undefined;
  data_files?: Record<string, string> | undefined;
}

export function withImportedSettings(form: PlanForm, settings: ImportedPlanSettings): PlanForm {
  const sources = settings.data_sources ?? [];
  return {
    ...form,
    concurrentUsers: String(settings.concurrent_users),
    duration: String(settings.duration),
    loadProfile: settings.load_profile ? profileFormOf(settings.load_profile) : null,
    ...(sources.length === 0
      ? {}
      : {
          dataSources: sources.map((source) => ({ ...source })),
          dataFiles: { ...(settings.data_files ?? {}) },
        }),
  };
}
