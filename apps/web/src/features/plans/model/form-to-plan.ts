import {
  DEFAULT_DURATION_MIN,
  DEFAULT_USERS,
  PerfPlanSchema,
  ScriptRequestSchema,
  type DataSourceInput,
  type PerfPlan,
  type ScriptRequest,
  type Tool,
  type UrlEntry,
  type UrlEntryInput,
} from '@aqa/plan';
import type { ZodError } from 'zod';
import {
  authorizationToModel,
  isReplacedAuthorizationHeader,
  type EntryForm,
  type KeyValueRow,
} from '@/features/call-editor';
import type { FlowForm, PlanForm } from './plan-form';
import { checkProfile, profileBodyOf, profileTotals, type ProfileBody } from './profile-form';

/**
 * The form as the plan model (docs/reference/01-authoring.md §3), and the model's problems mapped back to the form fields.
 * Entries whose URL is blank are left out of the plan (the spec's client sends only entries with a URL);
 * the rest keep their order. The script-upload screen's API editor requires the URL (docs/reference/01-authoring.md §5), so there
 * a blank URL stops Save, Run, Generate and Validate instead of being dropped (see `apiEditorErrors`).
 */

/** The plan as sent to save-test-plan / update-test-plan (plus user_email), before the schema reads it. */
export interface PlanBody {
  name: string;
  tool: Tool;
  concurrent_users: number | string;
  duration: number | string;
  urls: UrlEntryInput[];
  description?: string;
  source_page: PerfPlan['source_page'];
  test_type?: string;
  thresholds?: string[];
  abort_thresholds?: string[];
  load_profile?: ProfileBody;
  data_files?: Record<string, string>;
  data_sources?: DataSourceInput[];
  flows?: { name: string; weight: number | string }[];
  script?: string;
}

/** Where each sent value came from, to put the schema's and the server's problems next to their field. */
interface EntrySource {
  entryId: string;
  parameterRows: string[];
  headerRows: string[];
}

export interface FormErrors {
  /** Plan-level problems by model field: name, tool, concurrent_users, duration, urls. */
  plan: Partial<Record<string, string>>;
  /** Per entry id, by field: "url", "thinkTime", "headers.<rowId>.name", "authorization.tokenUrl"… */
  entries: Record<string, Record<string, string>>;
}

export const NO_ERRORS: FormErrors = { plan: {}, entries: {} };

export interface FormSnapshot {
  body: PlanBody;
  /** Form entries sent, in plan order. */
  sources: EntrySource[];
  /** Whether any entry has a URL (docs/reference/01-authoring.md §5 "at least one non-empty URL"). */
  hasUrl: boolean;
}

/** Blank → the default; a number as typed otherwise (the schema reports what is not a whole number). */
function numberSetting(text: string, fallback: number): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return fallback;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

function isBlankRow(row: KeyValueRow): boolean {
  return row.name.trim() === '' && row.value.trim() === '';
}

export function entryToModel(entry: EntryForm): { input: UrlEntryInput; source: EntrySource } {
  const parameters = entry.parameters.filter((row) => !isBlankRow(row));
  // The Authorization header is edited in its own tab (docs/reference/01-authoring.md §5): a row of that
  // name is left out when the tab sets authorization, and sent as written when the tab is empty (a Bearer
  // or Basic row has been moved to the tab by then; another scheme must still reach the API).
  const headers = entry.headers.filter(
    (row) => !isBlankRow(row) && !isReplacedAuthorizationHeader(row, entry.authorization),
  );
  const name = entry.name.trim();
  // Every field of the model, so a field added to UrlEntrySchema does not compile until the form sends it.
  const input = {
    name: name || undefined,
    method: entry.method,
    url: entry.url,
    parameters: parameters.map((row) => ({ key: row.name, value: row.value })),
    headers: headers.map((row) => ({ name: row.name, value: row.value })),
    authorization: authorizationToModel(entry.authorization),
    payload: entry.payload,
    extractType: entry.extractType,
    extractName: entry.extractName,
    extractValue: entry.extractValue,
    thinkTime: entry.thinkTime,
    transactionRate: entry.transactionRate,
    assertionType: entry.assertionType,
    assertionPath: entry.assertionPath,
    assertionValue: entry.assertionValue,
    assertionOperator: entry.assertionOperator,
    timeout: entry.timeout,
    validations: entry.validations,
    flow: entry.flow.trim() || undefined,
  } satisfies Record<keyof UrlEntry, unknown> & UrlEntryInput;
  return {
    input,
    source: {
      entryId: entry.id,
      parameterRows: parameters.map((row) => row.id),
      headerRows: headers.map((row) => row.id),
    },
  };
}

/** A flow row as sent: the weight a number when it reads as one, else as typed (the schema names the problem). */
function flowBodyOf(flow: FlowForm): { name: string; weight: number | string } {
  return { name: flow.name, weight: numberSetting(flow.weight, Number.NaN) };
}

export function snapshotForm(form: PlanForm): FormSnapshot {
  const sent = form.entries.filter((entry) => entry.url.trim() !== '').map(entryToModel);
  // With a profile, users and minutes are its totals (withProfileTotals, docs/adr/0027-load-profiles.md);
  // while it does not read, the profile's own problem stops the save.
  const profile = form.loadProfile ? checkProfile(form.loadProfile) : undefined;
  const totals = profile?.ok ? profileTotals(profile.profile) : undefined;
  // One expression a line as typed: a blank line is no threshold.
  const abortThresholds = form.abortThresholds.map((line) => line.trim()).filter((line) => line !== '');
  const body: PlanBody = {
    name: form.name,
    tool: form.tool,
    concurrent_users: totals?.users ?? numberSetting(form.concurrentUsers, DEFAULT_USERS),
    duration: totals?.minutes ?? numberSetting(form.duration, DEFAULT_DURATION_MIN),
    urls: sent.map((item) => item.input),
    source_page: form.sourcePage,
    ...(form.description ? { description: form.description } : {}),
    ...(form.testType ? { test_type: form.testType } : {}),
    ...(form.thresholds.length > 0 ? { thresholds: form.thresholds } : {}),
    ...(abortThresholds.length > 0 ? { abort_thresholds: abortThresholds } : {}),
    ...(form.loadProfile !== null ? { load_profile: profileBodyOf(form.loadProfile) } : {}),
    ...(form.dataFiles !== null ? { data_files: form.dataFiles } : {}),
    ...(form.dataSources !== null ? { data_sources: form.dataSources } : {}),
    ...(form.flows.length > 0 ? { flows: form.flows.map(flowBodyOf) } : {}),
  };
  return { body, sources: sent.map((item) => item.source), hasUrl: sent.length > 0 };
}

/** "urls.0.url", "urls[0].url" or a zod path → its parts, indexes as numbers. */
export function splitFieldPath(path: string | readonly PropertyKey[]): (string | number)[] {
  const parts =
    typeof path === 'string'
      ? path
          .replace(/\[(\d+)\]/g, '.$1')
          .split('.')
          .filter((part) => part !== '')
      : path.map((part) => (typeof part === 'symbol' ? String(part) : part));
  return parts.map((part) => (typeof part === 'string' && /^\d+$/.test(part) ? Number(part) : part));
}

/** Adds one problem at its model path; the first problem of a field wins. */
export function addFieldError(
  errors: FormErrors,
  sources: readonly EntrySource[],
  path: string | readonly PropertyKey[],
  message: string,
): void {
  const [head, index, list, rowIndex, ...rest] = splitFieldPath(path);
  if (head !== 'urls' || typeof index !== 'number') {
    const key = String(head ?? 'urls');
    errors.plan[key] ??= message;
    return;
  }
  const source = sources[index];
  if (!source) {
    errors.plan.urls ??= message;
    return;
  }
  let key: string;
  if ((list === 'parameters' || list === 'headers') && typeof rowIndex === 'number') {
    const rows = list === 'parameters' ? source.parameterRows : source.headerRows;
    key = [list, rows[rowIndex] ?? String(rowIndex), ...rest].join('.');
  } else {
    key = [list, rowIndex, ...rest].filter((part) => part !== undefined).join('.') || 'url';
  }
  const entryErrors = (errors.entries[source.entryId] ??= {});
  entryErrors[key] ??= message;
}

export function errorsFromIssues(error: ZodError, sources: readonly EntrySource[]): FormErrors {
  const errors: FormErrors = { plan: {}, entries: {} };
  for (const issue of error.issues) addFieldError(errors, sources, issue.path, issue.message);
  return errors;
}

export function hasErrors(errors: FormErrors): boolean {
  return Object.keys(errors.plan).length > 0 || Object.keys(errors.entries).length > 0;
}

export type PlanCheck =
  | { ok: true; plan: PerfPlan; snapshot: FormSnapshot; errors: FormErrors }
  | { ok: false; snapshot: FormSnapshot; errors: FormErrors };

export const API_NAME_REQUIRED = 'Enter the API name';
/** The model's own wording for a blank URL, so it is translated like the schema's. */
export const API_URL_REQUIRED = 'Enter the URL';

/**
 * docs/reference/01-authoring.md §5: "API name and URL are required in the API editor" — the editor of the script-upload screen,
 * the one that names its APIs. The URL screen's entries have no name field and a blank URL there only
 * leaves the entry out, so the rule is not applied there. Every entry is checked, blank URL or not.
 */
function apiEditorErrors(form: PlanForm): FormErrors {
  const errors: FormErrors = { plan: {}, entries: {} };
  if (form.sourcePage !== 'script-input') return errors;
  for (const entry of form.entries) {
    const fields: Record<string, string> = {};
    if (!entry.name.trim()) fields.name = API_NAME_REQUIRED;
    if (!entry.url.trim()) fields.url = API_URL_REQUIRED;
    if (Object.keys(fields).length > 0) errors.entries[entry.id] = fields;
  }
  return errors;
}

function mergeErrors(first: FormErrors, second: FormErrors): FormErrors {
  const entries = { ...first.entries };
  for (const [id, fields] of Object.entries(second.entries)) entries[id] = { ...fields, ...entries[id] };
  return { plan: { ...second.plan, ...first.plan }, entries };
}

/** The whole plan as the model reads it (name required): what save and run send. */
export function checkPlan(form: PlanForm): PlanCheck {
  const snapshot = snapshotForm(form);
  const parsed = PerfPlanSchema.safeParse(snapshot.body);
  const names = apiEditorErrors(form);
  if (parsed.success && !hasErrors(names))
    return { ok: true, plan: parsed.data, snapshot, errors: NO_ERRORS };
  const schemaErrors = parsed.success ? NO_ERRORS : errorsFromIssues(parsed.error, snapshot.sources);
  return { ok: false, snapshot, errors: mergeErrors(schemaErrors, names) };
}

export type ScriptCheck =
  | { ok: true; request: ScriptRequest; snapshot: FormSnapshot }
  | { ok: false; snapshot: FormSnapshot; errors: FormErrors };

/** What a script is generated or validated from: the plan without the name requirement. */
export function checkScriptRequest(form: PlanForm): ScriptCheck {
  const snapshot = snapshotForm(form);
  const { name, tool, concurrent_users, duration, urls, load_profile, data_files, data_sources, flows } =
    snapshot.body;
  // The script follows the plan's load profile (docs/adr/0027-load-profiles.md "7. Where a profile goes").
  const parsed = ScriptRequestSchema.safeParse({
    tool,
    concurrent_users,
    duration,
    urls,
    ...(load_profile === undefined ? {} : { load_profile }),
    // Its test data too: the script reads it from files beside it (docs/adr/0027-load-profiles.md "Test data").
    ...(data_files === undefined ? {} : { data_files }),
    ...(data_sources === undefined ? {} : { data_sources }),
    ...(flows === undefined ? {} : { flows }),
    ...(name.trim() ? { name } : {}),
  });
  const names = apiEditorErrors(form);
  if (parsed.success && !hasErrors(names)) return { ok: true, request: parsed.data, snapshot };
  const schemaErrors = parsed.success ? NO_ERRORS : errorsFromIssues(parsed.error, snapshot.sources);
  return { ok: false, snapshot, errors: mergeErrors(schemaErrors, names) };
}

/** The first problem in reading order, as "API 2 · url: Enter the URL"-style parts. */
export function firstProblem(
  errors: FormErrors,
  form: PlanForm,
): { entryNumber?: number; field: string; message: string } | undefined {
  const planField = Object.keys(errors.plan)[0];
  if (planField !== undefined) return { field: planField, message: errors.plan[planField] ?? '' };
  for (const [index, entry] of form.entries.entries()) {
    const fields = errors.entries[entry.id];
    const field = fields ? Object.keys(fields)[0] : undefined;
    if (fields && field !== undefined) return { entryNumber: index + 1, field, message: fields[field] ?? '' };
  }
  return undefined;
}
