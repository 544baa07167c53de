import type { UiAction, UiActionSource, UiLocator, UiLocatorKind, UiWaitState } from '@aqa/plan';
import type { TaurusReadResult, TaurusWarning } from '../taurus-model';

/*
 * What the Selenium-style Taurus reader answers (docs/reference/02-running.md §3 "Selenium-style
 * scripts"): each request of a selenium scenario as a page with its typed action steps, for the UI
 * runner to execute with Playwright. Plain values; text keeps the model's {{name}} templates.
 */

/** Taurus's locator kinds: ByID, ByName, ByCSS, ByXPath, ByLinkText. */
export type SeleniumLocatorKind = Extract<UiLocatorKind, 'id' | 'name' | 'css' | 'xpath' | 'linktext'>;

/** A locator of the UI action model (@aqa/plan), which Taurus's locators are a part of. */
export type SeleniumLocator = UiLocator;

/** waitFor's conditions; `not` forms wait for the element to stop being so. */
export type SeleniumWaitState = UiWaitState;

/** Where a Taurus action is written: "scenarios.simple.requests[3].actions[1]", its line, its name. */
export type SeleniumStepSource = UiActionSource;

/**
 * A Taurus Selenium-style action is one of the UI action model's (docs/adr/0030-recorded-ui-tests.md):
 * Taurus writes a part of its kinds (go, click, doubleClick, submit, type, keys, select, waitFor,
 * assertText, assertValue, assertTitle, assertPage, store*, pauseFor, screenshot).
 */
export type SeleniumStep = UiAction;

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
