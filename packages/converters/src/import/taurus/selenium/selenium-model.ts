import type { TaurusReadResult, TaurusWarning } from '../taurus-model';

/*
 * What the Selenium-style Taurus reader answers (docs/reference/02-running.md §3 "Selenium-style
 * scripts"): each request of a selenium scenario as a page with its typed action steps, for the UI
 * runner to execute with Playwright. Plain values; text keeps the model's {{name}} templates.
 */

/** Taurus's locator kinds: ByID, ByName, ByCSS, ByXPath, ByLinkText. */
export type SeleniumLocatorKind = 'id' | 'name' | 'css' | 'xpath' | 'linktext';

export interface SeleniumLocator {
  by: SeleniumLocatorKind;
  value: string;
}

/** waitFor's conditions; `not` forms wait for the element to stop being so. */
export type SeleniumWaitState =
  'present' | 'visible' | 'clickable' | 'notpresent' | 'notvisible' | 'notclickable';

export interface SeleniumStepSource {
  /** The YAML path: "scenarios.simple.requests[3].actions[1]". */
  path: string;
  line?: number;
  /** The action as written, for messages: "clickByID", "type". */
  action: string;
}

/** Locators are tried in order: the first one that finds an element is used (Taurus's fallbacks). */
type Located = { locators: SeleniumLocator[] };

export type SeleniumStep = { source: SeleniumStepSource } & (
  | { kind: 'go'; url: string }
  | ({ kind: 'click' | 'doubleClick' | 'submit' } & Located)
  /** Clears the field and fills it (Taurus's type). */
  | ({ kind: 'type'; text: string } & Located)
  /** Presses keys in the element; KEY_ENTER and the other KEY_ names are named keys. */
  | ({ kind: 'keys'; keys: string } & Located)
  /** Chooses the option by its visible text. */
  | ({ kind: 'select'; option: string } & Located)
  | ({ kind: 'waitFor'; state: SeleniumWaitState; timeout_ms: number } & Located)
  | ({ kind: 'assertText' | 'assertValue'; expected: string } & Located)
  | { kind: 'assertTitle'; expected: string }
  /** The request's `assert`: the page's source contains (or, with not, lacks) the text or pattern. */
  | { kind: 'assertPage'; text: string; regexp: boolean; not: boolean }
  | ({ kind: 'storeText' | 'storeValue'; variable: string } & Located)
  | { kind: 'storeTitle'; variable: string }
  | { kind: 'storeString'; value: string; variable: string }
  | { kind: 'pauseFor'; ms: number }
  /** `file` as written, or null for a name the runner gives. */
  | { kind: 'screenshot'; file: string | null }
);

export type SeleniumStepKind = SeleniumStep['kind'];

export interface SeleniumPage {
  /** The request's label, else its URL, else "Step n". */
  name: string;
  /** The URL opened before the actions, or null to act on the page the previous step left. */
  url: string | null;
  actions: SeleniumStep[];
  source: { path: string; line?: number };
}

export interface SeleniumReadResult {
  test_name: string;
  /** The execution's iterations within the UI bounds (1–10). */
  iterations: number;
  pages: SeleniumPage[];
  /** The scenario's `variables`, which the steps use as {{name}}; store* actions set more while running. */
  variables: Record<string, string>;
  warnings: TaurusWarning[];
}

/** The execution settings a Selenium-style script runs with, in the Taurus reader's fields. */
export type SeleniumExecution = Pick<
  TaurusReadResult,
  'test_name' | 'concurrent_users' | 'iterations' | 'ramp_up_time' | 'test_duration' | 'think_time'
>;

export interface UnknownSeleniumAction {
  /** The action name as written ("hoverByID"), or the whole item when no name can be read. */
  action: string;
  path: string;
  line?: number;
  message: string;
}

/** A script with actions the runner does not know: every one is listed, before anything runs. */
export class SeleniumScriptError extends Error {
  override readonly name = 'SeleniumScriptError';
  readonly unknown: UnknownSeleniumAction[];
  readonly warnings: TaurusWarning[];
  /** The first problem's line. */
  readonly line: number | undefined;

  constructor(message: string, unknown: UnknownSeleniumAction[], warnings: TaurusWarning[] = []) {
    super(message);
    this.unknown = unknown;
    this.warnings = warnings;
    this.line = unknown[0]?.line ?? warnings[0]?.line;
  }
}
