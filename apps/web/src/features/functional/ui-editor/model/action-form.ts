import {
  uiActionTarget,
  uiActionValue,
  type UiAction,
  type UiActionKind,
  type UiActionSource,
  type UiLocator,
  type UiLocatorKind,
  type UiWaitState,
} from '@aqa/plan';
import { movedWithin, newId } from '@/features/call-editor';

/**
 * A UI test's action steps as the UI editor edits them (docs/adr/0030-recorded-ui-tests.md §4 "The
 * editor"): plain state and a pure reducer. A step of a kind the editor offers is edited field by field;
 * any other kind (an imported recording's scroll, executeScript, keyDown …) is shown by its description
 * and saved exactly as it was read. A step nobody touched is saved as it was read too; an edited one is
 * rebuilt from its fields and its source says it was edited, so a failure still names where it came from.
 */

/** The kinds the editor has fields for; every other kind is shown read-only and kept. */
export const EDITABLE_ACTION_KINDS = [
  'go',
  'click',
  'doubleClick',
  'hover',
  'check',
  'uncheck',
  'type',
  'keys',
  'select',
  'waitFor',
  'assertText',
  'assertValue',
  'assertTitle',
  'assertVisible',
  'assertNotVisible',
  'assertPresent',
  'assertNotPresent',
  'assertChecked',
  'assertNotChecked',
  'storeText',
  'storeValue',
  'storeTitle',
  'echo',
  'pauseFor',
] as const satisfies readonly UiActionKind[];
export type EditableActionKind = (typeof EDITABLE_ACTION_KINDS)[number];

export function isEditableKind(kind: UiActionKind): kind is EditableActionKind {
  return (EDITABLE_ACTION_KINDS as readonly string[]).includes(kind);
}

/** The kinds with a value field: the URL, text, keys, option, expected value or echo text. */
export const VALUE_KINDS = [
  'go',
  'type',
  'keys',
  'select',
  'assertText',
  'assertValue',
  'assertTitle',
  'echo',
] as const satisfies readonly EditableActionKind[];
export type ValueKind = (typeof VALUE_KINDS)[number];

export function valueKindOf(kind: UiActionKind): ValueKind | null {
  return VALUE_KINDS.find((value) => value === kind) ?? null;
}

/** What fields a kind has in the editor. */
export interface KindFields {
  locator: boolean;
  /** The URL, text, keys, option, expected value or echo text. */
  value: boolean;
  variable: boolean;
  /** waitFor's state. */
  state: boolean;
  /** waitFor's time-out or pauseFor's time, in ms. */
  ms: boolean;
  /** An assertion: "Continue on failure" (soft, Selenium IDE's verify). */
  soft: boolean;
}

const LOCATED_ONLY: readonly EditableActionKind[] = [
  'click',
  'doubleClick',
  'hover',
  'check',
  'uncheck',
  'assertVisible',
  'assertNotVisible',
  'assertPresent',
  'assertNotPresent',
  'assertChecked',
  'assertNotChecked',
];

export function kindFields(kind: EditableActionKind): KindFields {
  const none: KindFields = {
    locator: false,
    value: false,
    variable: false,
    state: false,
    ms: false,
    soft: false,
  };
  const soft = kind.startsWith('assert');
  if (LOCATED_ONLY.includes(kind)) return { ...none, locator: true, soft };
  switch (kind) {
    case 'go':
    case 'echo':
      return { ...none, value: true };
    case 'type':
    case 'keys':
    case 'select':
      return { ...none, locator: true, value: true };
    case 'assertText':
    case 'assertValue':
      return { ...none, locator: true, value: true, soft: true };
    case 'assertTitle':
      return { ...none, value: true, soft: true };
    case 'waitFor':
      return { ...none, locator: true, state: true, ms: true };
    case 'storeText':
    case 'storeValue':
      return { ...none, locator: true, variable: true };
    case 'storeTitle':
      return { ...none, variable: true };
    default:
      return { ...none, ms: true };
  }
}

export interface UiActionForm {
  /** Stable across edits (React key, problem fields). */
  id: string;
  /** The action as read (null for one added here): saved as it is while the step is not edited. */
  original: UiAction | null;
  edited: boolean;
  kind: UiActionKind;
  by: UiLocatorKind;
  locator: string;
  /** The accessible name of a `role` locator (Playwright's getByRole name). */
  roleName: string;
  value: string;
  variable: string;
  state: UiWaitState;
  /** waitFor's time-out or pauseFor's time, in ms, as typed. */
  ms: string;
  soft: boolean;
}

/** Selenium IDE's time-out for a waitFor… command left blank (ADR 0030 §2), the new step's. */
export const DEFAULT_WAIT_MS = 30_000;
export const MAX_MS = 600_000;

function valueOf(action: UiAction): string {
  switch (action.kind) {
    case 'go':
      return action.url;
    case 'type':
    case 'echo':
      return action.text;
    case 'keys':
      return action.keys;
    case 'select':
      return action.option;
    case 'assertText':
    case 'assertValue':
    case 'assertTitle':
      return action.expected;
    default:
      return '';
  }
}

/** A step of a saved or imported plan as the editor holds it. */
export function actionFormOf(action: UiAction): UiActionForm {
  const first = 'locators' in action ? action.locators?.[0] : undefined;
  return {
    id: newId('action'),
    original: action,
    edited: false,
    kind: action.kind,
    by: first?.by ?? 'css',
    locator: first?.value ?? '',
    roleName: first?.name ?? '',
    value: valueOf(action),
    variable: 'variable' in action ? (action.variable ?? '') : '',
    state: action.kind === 'waitFor' ? action.state : 'visible',
    ms:
      action.kind === 'waitFor'
        ? String(action.timeout_ms)
        : action.kind === 'pauseFor'
          ? String(action.ms)
          : String(DEFAULT_WAIT_MS),
    soft: action.soft === true,
  };
}

export function newActionForm(kind: EditableActionKind): UiActionForm {
  return {
    id: newId('action'),
    original: null,
    edited: true,
    kind,
    by: 'css',
    locator: '',
    roleName: '',
    value: '',
    variable: '',
    state: 'visible',
    ms: kind === 'pauseFor' ? '1000' : String(DEFAULT_WAIT_MS),
    soft: false,
  };
}

/** A time in ms as typed: a whole number from 0 to 600,000, or null. */
export function msOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[0-9]{1,6}$/.test(trimmed)) return null;
  const ms = Number(trimmed);
  return ms <= MAX_MS ? ms : null;
}

const EDITED = 'edited in the UI editor';
const ADDED = 'Added in the UI editor';

/** Where an edited step came from: its recorder's place, said to be edited; a new step's, the editor. */
function editedSource(original: UiAction | null): Omit<UiActionSource, 'action'> {
  if (original === null) return { path: ADDED };
  const path = original.source.path;
  if (path === '') return { path: EDITED.charAt(0).toUpperCase() + EDITED.slice(1) };
  return { path: path.endsWith(EDITED) || path === ADDED ? path : `${path}, ${EDITED}` };
}

/** "click css: #go", "assertText id: out Hello": what an edited step says it is, in failures. */
export function actionWords(action: UiAction): string {
  return [action.kind, uiActionTarget(action), uiActionValue(action) ?? '']
    .filter((part) => part !== '')
    .join(' ')
    .slice(0, 2_000);
}

/**
 * The step's locators: the first as edited, keeping what the editor has no field for (frames to enter,
 * `exact`); the recorded fallbacks only while the first is the one recorded — a new first locator
 * aims at another element, which the old fallbacks would find instead.
 */
function locatorsOf(form: UiActionForm): UiLocator[] {
  const recorded =
    form.original !== null && 'locators' in form.original ? (form.original.locators ?? []) : [];
  const [first, ...fallbacks] = recorded;
  const name = form.by === 'role' && form.roleName.trim() !== '' ? { name: form.roleName } : {};
  const same = first !== undefined && first.by === form.by && first.value === form.locator;
  const kept = same
    ? {
        ...(first.within === undefined ? {} : { within: first.within }),
        ...(first.exact === undefined ? {} : { exact: first.exact }),
      }
    : {};
  const edited: UiLocator = { by: form.by, value: form.locator.trim(), ...name, ...kept };
  return same && (first.name ?? '') === form.roleName ? [edited, ...fallbacks] : [edited];
}

/**
 * The step as the model reads it. Untouched: as read. Edited: from its fields (a bad time is sent as -1,
 * which the model refuses; actionProblems names it first), with the recorded options the editor has
 * no field for (a click's button and offset, an assertion's `not`, a select's `by` and `mode`) kept
 * while the kind is the one recorded.
 */
export function actionOfForm(form: UiActionForm): UiAction {
  if (!form.edited && form.original !== null) return form.original;
  if (!isEditableKind(form.kind)) {
    if (form.original !== null) return form.original;
    throw new Error(`A new step of kind ${form.kind} cannot be made in the editor`);
  }
  const fields = kindFields(form.kind);
  const same = form.original !== null && form.original.kind === form.kind ? form.original : null;
  const extras = same === null ? {} : extrasOf(same);
  const soft = fields.soft && form.soft ? { soft: true } : {};
  const ms = msOf(form.ms) ?? -1;
  const at = { source: { action: '', ...editedSource(form.original) }, ...soft };
  const locators = locatorsOf(form);
  const action = buildAction(form, at, locators, ms, extras);
  return { ...action, source: { ...action.source, action: actionWords(action) } };
}

type Extras = Record<string, unknown>;

/** What a recorded step of an editable kind carries that no field edits. */
function extrasOf(action: UiAction): Extras {
  const picked: Extras = {};
  for (const key of ['button', 'offset', 'not', 'contains', 'by', 'mode'] as const) {
    if (key in action) picked[key] = (action as Record<string, unknown>)[key];
  }
  return picked;
}

/** The recorded options kept on a step, as short words for its row ("not", "button: right"). */
export function keptOptions(action: UiAction | null, kind: UiActionKind): string[] {
  if (action === null || action.kind !== kind || !isEditableKind(kind)) return [];
  const extras = extrasOf(action);
  return Object.entries(extras)
    .filter(([key, value]) => value !== undefined && value !== false && !(key === 'by' && value === 'label'))
    .map(([key, value]) =>
      value === true
        ? key
        : typeof value === 'object' && value !== null
          ? `${key}: ${Object.values(value as Record<string, unknown>).join(',')}`
          : `${key}: ${String(value)}`,
    );
}

function buildAction(
  form: UiActionForm,
  at: { source: UiActionSource; soft?: boolean },
  locators: UiLocator[],
  ms: number,
  extras: Extras,
): UiAction {
  const located = { ...at, locators };
  switch (form.kind) {
    case 'go':
      return { kind: 'go', ...at, url: form.value.trim() };
    case 'click':
    case 'doubleClick':
      return { kind: form.kind, ...located, ...extras };
    case 'hover':
    case 'check':
    case 'uncheck':
      return { kind: form.kind, ...located };
    case 'type':
      return { kind: 'type', ...located, text: form.value };
    case 'keys':
      return { kind: 'keys', ...located, keys: form.value };
    case 'select':
      return { kind: 'select', ...located, option: form.value, ...extras };
    case 'waitFor':
      return { kind: 'waitFor', ...located, state: form.state, timeout_ms: ms };
    case 'assertText':
    case 'assertValue':
      return { kind: form.kind, ...located, expected: form.value, ...extras };
    case 'assertTitle':
      return { kind: 'assertTitle', ...at, expected: form.value, ...extras };
    case 'assertVisible':
    case 'assertNotVisible':
    case 'assertPresent':
    case 'assertNotPresent':
    case 'assertChecked':
    case 'assertNotChecked':
      return { kind: form.kind, ...located };
    case 'storeText':
    case 'storeValue':
      return { kind: form.kind, ...located, variable: form.variable.trim() };
    case 'storeTitle':
      return { kind: 'storeTitle', ...at, variable: form.variable.trim() };
    case 'echo':
      return { kind: 'echo', ...at, text: form.value };
    default:
      return { kind: 'pauseFor', ...at, ms };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Edits.

export type ActionFormPatch = Partial<
  Pick<UiActionForm, 'by' | 'locator' | 'roleName' | 'value' | 'variable' | 'state' | 'ms' | 'soft'>
>;

export type UiActionsEdit =
  | { type: 'add'; kind: EditableActionKind }
  | { type: 'set'; id: string; patch: ActionFormPatch }
  /** The kind changes; the locator, value and the rest stay, for the fields the new kind has. */
  | { type: 'setKind'; id: string; kind: EditableActionKind }
  | { type: 'move'; from: number; to: number }
  | { type: 'remove'; id: string };

export function uiActionsReducer(actions: readonly UiActionForm[], edit: UiActionsEdit): UiActionForm[] {
  switch (edit.type) {
    case 'add':
      return [...actions, newActionForm(edit.kind)];
    case 'set':
      return actions.map((action) =>
        action.id === edit.id ? { ...action, ...edit.patch, edited: true } : action,
      );
    case 'setKind':
      return actions.map((action) =>
        action.id === edit.id && isEditableKind(action.kind)
          ? { ...action, kind: edit.kind, edited: true }
          : action,
      );
    case 'move':
      return movedWithin(actions, edit.from, edit.to) ?? [...actions];
    case 'remove':
      return actions.filter((action) => action.id !== edit.id);
  }
}

/** A copy with fresh ids, for a duplicated UI test. */
export function copyActionForms(actions: readonly UiActionForm[]): UiActionForm[] {
  return actions.map((action) => ({ ...action, id: newId('action') }));
}

// ---------------------------------------------------------------------------------------------------------
// Problems.

/** The problems of a step, in the model's English; the screen translates them (messages.ts). */
export const ACTION_PROBLEMS = {
  url: 'a URL is required',
  locator: 'a locator is required',
  variable: 'a variable name is required',
  ms: `the time must be a whole number of ms from 0 to ${MAX_MS}`,
} as const;
export type ActionProblem = keyof typeof ACTION_PROBLEMS;

/** "UI Test #2 step 3: a locator is required". */
export function actionProblemMessage(testNumber: number, stepNumber: number, problem: ActionProblem): string {
  return `UI Test #${testNumber} step ${stepNumber}: ${ACTION_PROBLEMS[problem]}`;
}

const ACTION_PROBLEM = /^UI Test #(\d+) step (\d+): (.+)$/;

/** A step problem's parts, for its translation; undefined for any other message. */
export function readActionProblem(
  message: string,
): { number: string; step: string; problem: ActionProblem } | undefined {
  const match = ACTION_PROBLEM.exec(message);
  if (!match?.[1] || !match[2]) return undefined;
  const problem = (Object.keys(ACTION_PROBLEMS) as ActionProblem[]).find(
    (key) => ACTION_PROBLEMS[key] === match[3],
  );
  return problem === undefined ? undefined : { number: match[1], step: match[2], problem };
}

/** The fields of a step a problem shows under. */
export type ActionField = 'value' | 'locator' | 'variable' | 'ms';

/**
 * What is wrong with an edited step, each under its field: a `go` with no URL, a located kind with no
 * locator, a store with no variable name, a time that is not whole ms from 0 to 600,000. An untouched
 * step is the reader's, which the model judges.
 */
export function actionProblems(form: UiActionForm): { field: ActionField; problem: ActionProblem }[] {
  if ((!form.edited && form.original !== null) || !isEditableKind(form.kind)) return [];
  const fields = kindFields(form.kind);
  const problems: { field: ActionField; problem: ActionProblem }[] = [];
  if (form.kind === 'go' && form.value.trim() === '') problems.push({ field: 'value', problem: 'url' });
  if (fields.locator && form.locator.trim() === '') problems.push({ field: 'locator', problem: 'locator' });
  if (fields.variable && form.variable.trim() === '')
    problems.push({ field: 'variable', problem: 'variable' });
  if (fields.ms && msOf(form.ms) === null) problems.push({ field: 'ms', problem: 'ms' });
  return problems;
}
