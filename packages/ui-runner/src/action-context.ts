import type { Frame, Page } from 'playwright-core';
import type { UiAction, UiLocator, UiScreenshotRef, ValidationDetail } from '@aqa/plan';
import { findElement, locatorProblem, locatorsText, type Found } from './locators';
import type { PageWatch } from './page-watch';

/*
 * What every action runs with and answers (docs/adr/0030-recorded-ui-tests.md §1): the page and its
 * watch, the run's variables, the time left; an outcome in words, with the locator used and, for an
 * assertion, its validation detail.
 */

export interface ActionContext {
  /** The window the actions act in: the one the test began in until a window is selected (ADR 0030 §5). */
  page: Page;
  /** The window the test began in (the Recorder's "main", a codegen test's `page`). */
  firstPage: Page;
  /** The watch of a window of the run (each has its own, from when it opened). */
  watchOf(page: Page): PageWatch;
  /** The frame Selenium IDE's selectFrame chose; the page's own document when absent (ADR 0030 §5). */
  frame?: Frame | undefined;
  watch: PageWatch;
  /** Text with {{name}} filled from the run's variables. */
  render(text: string): string;
  variables: Record<string, string>;
  /** Opens a URL in the window the actions act in; answers why it could not, or null. */
  open(url: string): Promise<string | null>;
  /** Keeps a screenshot of the window the actions act in with the step. */
  /** Keeps a screenshot of the acting page; its reference, or null when none could be kept. */
  shoot(label: string, failure: boolean): Promise<UiScreenshotRef | null>;
  signal: AbortSignal;
  /** How long one action may take. */
  timeoutMs: number;
  /** What is left of the test duration: a pause or a wait ends by then. */
  remainingMs(): number;
  /** How long an action looks for its element (LOCATE_WAIT_MS unless said); 0 while an expect looks again. */
  locateWaitMs?: number;
}

export interface ActionOutcome {
  passed: boolean;
  message: string;
  locator: string | null;
  /** An assertion, judged as a validation rule is. */
  detail?: ValidationDetail;
  /** A window the action found newly opened (a popup), to be measured as a page the step opened. */
  opened?: Page;
}

/** Where elements are looked for and scripts run: the frame selectFrame chose, else the page. */
export function scopeOf(ctx: ActionContext): Page | Frame {
  return ctx.frame === undefined || ctx.frame.isDetached() ? ctx.page : ctx.frame;
}

/** Finds the element, or fails saying every locator tried. */
export async function locate(
  locators: readonly UiLocator[],
  ctx: ActionContext,
): Promise<Found | ActionOutcome> {
  const found = await findElement(scopeOf(ctx), locators, ctx.locateWaitMs);
  if (found !== null) return found;
  const problems = (await Promise.all(locators.map((l) => locatorProblem(scopeOf(ctx), l)))).filter(
    (p): p is string => p !== undefined,
  );
  const tried = locatorsText(locators);
  return {
    passed: false,
    locator: tried,
    message:
      problems.length > 0
        ? `expected an element by ${tried}, but ${problems.join('; ')}`
        : `expected an element by ${tried}; none is on the page`,
  };
}

/** An assertion's outcome, judged as a validation rule is: its detail names the action as written. */
export function judgement(step: UiAction) {
  return (
    passed: boolean,
    locator: string | null,
    type: ValidationDetail['type'],
    expected: string,
    actual: string | null,
    message: string,
  ): ActionOutcome => ({
    passed,
    locator,
    message,
    detail: { type, name: step.source.action, expected, actual, passed, message },
  });
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A Playwright error in words: its first line without the API's name, a time-out said plainly. */
export function errorText(error: unknown, timeoutMs: number): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = (text.split('\n')[0] ?? text).replace(/^[a-zA-Z]+\.[a-zA-Z]+: (?:Error: )?/, '');
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `it did not finish within ${seconds(timeoutMs)} (the step time-out)`;
  }
  return first;
}
