import { z } from 'zod';
import {
  API_VALIDATION_TYPES,
  FUNCTIONAL_VALIDATION_TYPES,
  type FunctionalValidationType,
  SCRIPT_VALIDATION_TYPES,
  UI_VALIDATION_TYPES,
} from './functional/validation';
import type { MessageTestType } from './messages';

/*
 * The kind of a test (docs/test-kinds.md): which editor writes it, which runner runs it, which table
 * and screens keep it. One rule (kindOf) tells it from a plan or a stored row, and one table
 * (TEST_KINDS) says what each kind means to the screens, the messages and the model's checks, so no
 * caller derives it by a rule of its own.
 */

export const TEST_KIND_NAMES = ['load', 'api', 'script', 'ui'] as const;
export const TestKindSchema = z.enum(TEST_KIND_NAMES);
export type TestKind = z.infer<typeof TestKindSchema>;

/** Whole-number bounds, with the value a blank field falls back to (docs/reference/02-running.md §5). */
export interface KindBound {
  min: number;
  max: number;
  fallback: number;
}

export interface TestKindFacts {
  /** The web app's editor of a saved plan of this kind; `?planId=` names the plan. */
  editorPath: string;
  /** The web app's result screen; the run's id follows. */
  resultPath: string;
  /** A run's id starts with this. */
  idPrefix: string;
  /** Where Back from a run's result goes (docs/reference/02-running.md §4 "Back navigation"). */
  backFromResult: 'editor' | 'dashboard';
  /** The test type a message about such a run names (docs/reference/02-running.md §2 "Messages"). */
  messageTestType: MessageTestType;
  /** Words for one test of this kind: "UI test"; with its article: "A UI test". */
  word: string;
  aWord: string;
  /** The functional rule types a call of this kind may carry; null: the kind has no functional rules. */
  ruleTypes: readonly FunctionalValidationType[] | null;
  /** How many times a run may go through its calls; null: the kind runs for a duration only. */
  iterations: KindBound | null;
}

/** What each kind means; the functional bounds other than iterations are the same for every kind. */
export const TEST_KINDS = {
  load: {
    editorPath: '/create-test/url-input',
    resultPath: '/test-result/',
    idPrefix: 'run_',
    backFromResult: 'editor',
    messageTestType: 'load',
    word: 'load test',
    aWord: 'A load test',
    ruleTypes: null,
    iterations: null,
  },
  api: {
    editorPath: '/functional-test/url-input',
    resultPath: '/functional-test-result/',
    idPrefix: 'fc_',
    backFromResult: 'editor',
    messageTestType: 'api',
    word: 'API test',
    aWord: 'An API test',
    // The editor's types, and those a converted performance plan carries (its header items are regex
    // rules, its assertions equals, contains_text or regex ones: docs/call-core.md) or a call read
    // from a script: the editor shows them and keeps them.
    ruleTypes: [...API_VALIDATION_TYPES, ...SCRIPT_VALIDATION_TYPES],
    iterations: { min: 1, max: 1000, fallback: 1 },
  },
  /** A Taurus or Selenium script; a Selenium one runs as a UI test (runKindOf). */
  script: {
    editorPath: '/functional-test/script-input',
    resultPath: '/functional-test-result/',
    idPrefix: 'fc_',
    backFromResult: 'editor',
    messageTestType: 'api',
    word: 'API test',
    aWord: 'An API test',
    // The script screen may hold either kind's rules, and those only a read script carries.
    ruleTypes: FUNCTIONAL_VALIDATION_TYPES,
    iterations: { min: 1, max: 1000, fallback: 1 },
  },
  ui: {
    editorPath: '/functional-test/ui-url-input',
    resultPath: '/functional-test-result/',
    idPrefix: 'fc_',
    backFromResult: 'dashboard',
    messageTestType: 'ui',
    word: 'UI test',
    aWord: 'A UI test',
    ruleTypes: UI_VALIDATION_TYPES,
    // UI tests run fewer iterations.
    iterations: { min: 1, max: 10, fallback: 1 },
  },
} as const satisfies Readonly<Record<TestKind, TestKindFacts>>;

/**
 * What a plan, a run's request or a stored row says of its kind, in any of the vocabularies written
 * over time: a stored `kind`; a functional plan's `source` (url_input | script_input | ui_url_input),
 * `test_type` (functional | api | ui) and `test_framework` (taurus | selenium).
 */
export interface KindMarks {
  kind?: string | undefined;
  source?: string | undefined;
  test_type?: string | undefined;
  test_framework?: string | undefined;
}

/** A stored word that is a kind, else null. */
export function asTestKind(word: unknown): TestKind | null {
  const read = TestKindSchema.safeParse(word);
  return read.success ? read.data : null;
}

/**
 * The kind a functional plan (or a row) was written as, which names its editor: a stored kind as it is;
 * a script plan `script`; a UI source, type or framework `ui`; anything else `api`. A load plan
 * carries no such marks: it is `load` by the table it is kept in.
 */
export function kindOf(marks: KindMarks): TestKind {
  const stored = asTestKind(marks.kind);
  if (stored !== null) return stored;
  if (marks.source === 'script_input') return 'script';
  if (marks.source === 'ui_url_input' || marks.test_type === 'ui' || marks.test_framework === 'selenium') {
    return 'ui';
  }
  return 'api';
}

/**
 * The kind whose runner runs the plan: its kind, except that a script in the Selenium vocabulary (its
 * framework selenium, or its type ui) runs in a browser as a UI test does (docs/design.md §9 "UI tests").
 * Its bounds, its words and its messages are the UI test's.
 */
export function runKindOf(marks: KindMarks): TestKind {
  const kind = kindOf(marks);
  if (kind !== 'script') return kind;
  return marks.test_framework === 'selenium' || marks.test_type === 'ui' ? 'ui' : 'script';
}

/** A run in a browser through the UI runner rather than HTTP calls. */
export function runsInBrowser(marks: KindMarks): boolean {
  return runKindOf(marks) === 'ui';
}
