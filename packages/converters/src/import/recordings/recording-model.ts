import { type FunctionalPlanInput, RECORDING_FORMATS, type RecordingFormat, type UiAction } from '@aqa/plan';
import type { ImportWarning } from '../import-model';

/*
 * What a browser recording becomes (docs/adr/0030-recorded-ui-tests.md §2): a UI plan ready for
 * save-config — one step per recorded test, each with its actions in the UI action model, every action
 * keeping the recorder's own name for it and its position — and what the reading counted.
 */

export { RECORDING_FORMATS, type RecordingFormat };

/** How each recorder is called in messages and on the screen. */
export const RECORDING_NAMES: Record<RecordingFormat, string> = {
  'selenium-ide': 'Selenium IDE',
  'chrome-recorder': 'Chrome DevTools Recorder',
  playwright: 'Playwright codegen',
};

/** What one file of each recorder is called: "a Selenium IDE project". */
export const RECORDING_FILE: Record<RecordingFormat, string> = {
  'selenium-ide': 'project',
  'chrome-recorder': 'recording',
  playwright: 'script',
};

/** A recorded test as one step of the UI plan: its name and its actions. */
export interface RecordedTest {
  name: string;
  actions: UiAction[];
}

export interface RecordingRead {
  format: RecordingFormat;
  /** A UI plan (test_type ui), its steps the recorded tests in order, with no URL of their own. */
  plan: FunctionalPlanInput & { apis: { name: string; url: string; actions: UiAction[] }[] };
  counts: {
    /** Tests (steps of the plan). */
    tests: number;
    /** Actions in all. */
    actions: number;
    /** Commands skipped as the recorder skips them (Selenium IDE's `//` commented-out commands). */
    skipped: number;
  };
  warnings: ImportWarning[];
}

/** The UI plan of recorded tests: one step each, no URL (its actions open the pages), one iteration. */
export function recordedPlan(name: string, tests: readonly RecordedTest[]): RecordingRead['plan'] {
  return {
    test_name: name,
    test_type: 'ui',
    source: 'ui_url_input',
    test_framework: 'selenium',
    iterations: 1,
    concurrent_users: 1,
    apis: tests.map((test) => ({ name: test.name, url: '', method: 'GET', actions: test.actions })),
  };
}
