import {
  DEFAULT_DURATION_MIN,
  DEFAULT_TOOL,
  DEFAULT_USERS,
  type HttpMethod,
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
  source_page: 'sourcePage',
  test_type: 'testType',
  // The uploaded script is edited beside the form (usePlanEditor's script state), not in it.
  script: null,
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
  /** The abort thresholds as typed, one a line (blank lines are not sent: form-to-plan.ts). */
  | { type: 'setAbortThresholds'; lines: string[] }
  | { type: 'applyPreset'; preset: Preset; peak: number; lengthMs: number }
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
  };
}
