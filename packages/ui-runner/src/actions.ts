import type { Locator, Page } from 'playwright-core';
import type { SeleniumLocator, SeleniumStep, SeleniumWaitState } from '@aqa/converters';
import { compileUserPattern, UserPatternError, type ValidationDetail } from '@aqa/plan';
import { readKeys } from './keys';
import { findElement, locatorProblem, locatorsText, playwrightLocator, type Found } from './locators';
import type { PageWatch } from './page-watch';

/*
 * One Selenium-style action run by Playwright (docs/reference/02-running.md §3 "Selenium-style
 * scripts"), one function per family: navigation, element actions, waits, assertions, stores, pauses
 * and screenshots. Each answers whether it passed and, in words, what it did or what was expected and
 * found, with the locator it used (or all it tried). Assertions are also judged as validation details.
 */

export interface ActionContext {
  page: Page;
  watch: PageWatch;
  /** Text with {{name}} filled from the run's variables. */
  render(text: string): string;
  variables: Record<string, string>;
  /** Opens a URL in the page; answers why it could not, or null. */
  open(url: string): Promise<string | null>;
  /** Keeps a screenshot of the page with the step. */
  shoot(label: string, failure: boolean): Promise<void>;
  signal: AbortSignal;
  /** How long one action may take. */
  timeoutMs: number;
  /** What is left of the test duration: a pause or a wait ends by then. */
  remainingMs(): number;
}

export interface ActionOutcome {
  passed: boolean;
  message: string;
  locator: string | null;
  /** An assertion, judged as a validation rule is. */
  detail?: ValidationDetail;
}

/** How long after a click, a key press or a submit a navigation may start and still be waited for. */
const NAVIGATION_START_MS = 250;
const POLL_MS = 25;

export async function runAction(step: SeleniumStep, ctx: ActionContext): Promise<ActionOutcome> {
  try {
    switch (step.kind) {
      case 'go':
        return await go(step.url, ctx);
      case 'click':
      case 'doubleClick':
      case 'type':
      case 'keys':
      case 'select':
      case 'submit':
        return await act(step, ctx);
      case 'waitFor':
        return await waitFor(step.locators, step.state, Math.min(step.timeout_ms, ctx.remainingMs()), ctx);
      case 'assertText':
      case 'assertValue':
      case 'assertTitle':
      case 'assertPage':
        return await assert(step, ctx);
      case 'storeText':
      case 'storeValue':
      case 'storeTitle':
      case 'storeString':
        return await store(step, ctx);
      case 'pauseFor':
        return await pause(Math.min(step.ms, ctx.remainingMs()), ctx.signal);
      case 'screenshot':
        await ctx.shoot(step.file ?? 'Screenshot', false);
        return { passed: true, message: `kept a screenshot (${step.file ?? 'Screenshot'})`, locator: null };
    }
  } catch (error) {
    return { passed: false, message: errorText(error, ctx.timeoutMs), locator: null };
  }
}

async function go(url: string, ctx: ActionContext): Promise<ActionOutcome> {
  const target = ctx.render(url);
  const failure = await ctx.open(target);
  return failure === null
    ? {
        passed: true,
        message: `opened ${ctx.page.url()} (status ${ctx.watch.status ?? 'unknown'})`,
        locator: null,
      }
    : { passed: false, message: `could not open ${target}: ${failure}`, locator: null };
}

type ElementStep = Extract<
  SeleniumStep,
  { kind: 'click' | 'doubleClick' | 'type' | 'keys' | 'select' | 'submit' }
>;

/** Finds the element, or fails saying every locator tried. */
async function locate(
  locators: readonly SeleniumLocator[],
  ctx: ActionContext,
): Promise<Found | ActionOutcome> {
  const found = await findElement(ctx.page, locators);
  if (found !== null) return found;
  const problems = (await Promise.all(locators.map((l) => locatorProblem(ctx.page, l)))).filter(
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

/** What an element action does, for the message when the browser refuses it. */
const DOING: Record<ElementStep['kind'], string> = {
  click: 'click',
  doubleClick: 'double-click',
  type: 'type into',
  keys: 'press keys in',
  select: 'choose an option in',
  submit: 'submit the form of',
};

async function act(step: ElementStep, ctx: ActionContext): Promise<ActionOutcome> {
  const found = await locate(step.locators, ctx);
  if (!('element' in found)) return found;
  try {
    return await actOn(step, found, ctx);
  } catch (error) {
    return {
      passed: false,
      locator: found.used,
      message: `could not ${DOING[step.kind]} the element by ${found.used}: ${errorText(error, ctx.timeoutMs)}`,
    };
  }
}

async function actOn(
  step: ElementStep,
  { element, used }: Found,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const timeout = ctx.timeoutMs;
  const done = (message: string): ActionOutcome => ({ passed: true, message, locator: used });
  switch (step.kind) {
    case 'click':
      await withNavigation(ctx, () => element.click({ timeout }));
      return done(`clicked the element by ${used}`);
    case 'doubleClick':
      await withNavigation(ctx, () => element.dblclick({ timeout }));
      return done(`double-clicked the element by ${used}`);
    case 'type': {
      const text = ctx.render(step.text);
      await element.fill(text, { timeout });
      return done(`typed "${text}" into the element by ${used}`);
    }
    case 'keys': {
      const keys = readKeys(ctx.render(step.keys));
      if ('unknown' in keys) {
        return {
          passed: false,
          locator: used,
          message: `${keys.unknown} is not a key AnybodyQA knows (KEY_ENTER, KEY_TAB, KEY_ESCAPE, arrows, F1–F12 …)`,
        };
      }
      if ('press' in keys) {
        await withNavigation(ctx, () => element.press(keys.press, { timeout }));
        return done(`pressed ${keys.press} in the element by ${used}`);
      }
      await element.pressSequentially(keys.type, { timeout });
      return done(`typed the keys "${keys.type}" into the element by ${used}`);
    }
    case 'select': {
      const option = ctx.render(step.option);
      const labels = await element
        .evaluate((el) =>
          el instanceof HTMLSelectElement ? [...el.options].map((o) => o.label.trim()) : null,
        )
        .catch(() => null);
      if (labels === null) {
        return {
          passed: false,
          locator: used,
          message: `expected a select element by ${used}; it is not one`,
        };
      }
      if (!labels.includes(option.trim())) {
        return {
          passed: false,
          locator: used,
          message: `expected the option "${option}" in the select by ${used}; it has ${labels.map((l) => `"${l}"`).join(', ') || 'no options'}`,
        };
      }
      await element.selectOption({ label: option.trim() }, { timeout });
      return done(`chose "${option}" in the select by ${used}`);
    }
    case 'submit': {
      const submitted = await withNavigation(ctx, () =>
        element.evaluate((el) => {
          const form = el instanceof HTMLFormElement ? el : el.closest('form');
          if (form === null) return false;
          form.requestSubmit();
          return true;
        }),
      );
      return submitted
        ? done(`submitted the form of the element by ${used}`)
        : {
            passed: false,
            locator: used,
            message: `expected a form around the element by ${used}; there is none`,
          };
    }
  }
}

/**
 * Runs an action that may start a navigation (a link, a submit, Enter in a form), and then waits for
 * the new page to load, so the next action sees it. A navigation that fails is left for the step's
 * failed requests.
 */
async function withNavigation<T>(ctx: ActionContext, action: () => Promise<T>): Promise<T> {
  const before = ctx.watch.counts();
  const result = await action();
  const started = Date.now();
  const navigated = (): boolean => ctx.watch.counts().navigations > before.navigations;
  while (!navigated() && Date.now() - started < NAVIGATION_START_MS) await ctx.page.waitForTimeout(POLL_MS);
  if (!navigated()) return result;
  const deadline = Date.now() + ctx.timeoutMs;
  for (;;) {
    const now = ctx.watch.counts();
    if (now.loads > before.loads || now.documentFailures > before.documentFailures) return result;
    if (Date.now() >= deadline) {
      throw new Error(`the page this action opened did not load within ${seconds(ctx.timeoutMs)}`);
    }
    await ctx.page.waitForTimeout(POLL_MS);
  }
}

/** Whether an element is so: present (in the page), visible, clickable (visible and enabled). */
async function holds(element: Locator, state: 'present' | 'visible' | 'clickable'): Promise<boolean> {
  if ((await element.count()) === 0) return false;
  if (state === 'present') return true;
  if (!(await element.isVisible())) return false;
  return state === 'visible' || (await element.isEnabled());
}

async function waitFor(
  locators: readonly SeleniumLocator[],
  state: SeleniumWaitState,
  timeoutMs: number,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const negated = state.startsWith('not');
  const positive = (negated ? state.slice(3) : state) as 'present' | 'visible' | 'clickable';
  const tried = locatorsText(locators);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let which: string | null = null;
    for (const locator of locators) {
      if (await holds(playwrightLocator(ctx.page, locator).first(), positive).catch(() => false)) {
        which = `${locator.by}: ${locator.value}`;
        break;
      }
    }
    if (!negated && which !== null) {
      return { passed: true, locator: which, message: `the element by ${which} is ${positive}` };
    }
    if (negated && which === null) {
      return { passed: true, locator: tried, message: `no element by ${tried} is ${positive}` };
    }
    if (Date.now() >= deadline) {
      return negated
        ? {
            passed: false,
            locator: which,
            message: `expected no element by ${tried} to be ${positive} within ${seconds(timeoutMs)}; the element by ${which} still is`,
          }
        : {
            passed: false,
            locator: tried,
            message: `expected an element by ${tried} to be ${positive} within ${seconds(timeoutMs)}; none was`,
          };
    }
    ctx.signal.throwIfAborted();
    await ctx.page.waitForTimeout(POLL_MS * 4);
  }
}

type AssertStep = Extract<
  SeleniumStep,
  { kind: 'assertText' | 'assertValue' | 'assertTitle' | 'assertPage' }
>;

async function assert(step: AssertStep, ctx: ActionContext): Promise<ActionOutcome> {
  const name = step.source.action;
  const judged = (
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
    detail: { type, name, expected, actual, passed, message },
  });
  switch (step.kind) {
    case 'assertTitle': {
      const expected = ctx.render(step.expected);
      const title = await ctx.page.title();
      return title.trim() === expected.trim()
        ? judged(true, null, 'page_title', expected, title, `the title is "${title}"`)
        : judged(
            false,
            null,
            'page_title',
            expected,
            title,
            `expected the title "${expected}", got "${title}"`,
          );
    }
    case 'assertPage': {
      const text = ctx.render(step.text);
      const source = await ctx.page.content();
      let found: boolean;
      try {
        // The page's pattern runs on the linear-time engine, as every user pattern (docs/adr/0022-linear-time-patterns.md).
        found = step.regexp ? compileUserPattern(text).test(source) : source.includes(text);
      } catch (error) {
        if (!(error instanceof UserPatternError)) throw error;
        return judged(false, null, 'regex', text, null, `/${text}/ cannot be run: ${error.message}`);
      }
      const type = step.regexp ? 'regex' : 'contains_text';
      const target = step.regexp ? `/${text}/` : `"${text}"`;
      const verb = step.regexp ? 'match' : 'contain';
      const verbs = step.regexp ? 'matches' : 'contains';
      const actual = source.length > 200 ? `${source.slice(0, 200)}…` : source;
      if (step.not) {
        return found
          ? judged(
              false,
              null,
              type,
              text,
              actual,
              `expected the page source not to ${verb} ${target}, but it does`,
            )
          : judged(true, null, type, text, actual, `the page source does not ${verb} ${target}`);
      }
      return found
        ? judged(true, null, type, text, actual, `the page source ${verbs} ${target}`)
        : judged(
            false,
            null,
            type,
            text,
            actual,
            `expected the page source to ${verb} ${target}; it does not`,
          );
    }
    case 'assertText':
    case 'assertValue': {
      const found = await locate(step.locators, ctx);
      const expected = ctx.render(step.expected);
      const what = step.kind === 'assertText' ? 'text' : 'value';
      if (!('element' in found)) {
        return judged(false, found.locator, 'contains_text', expected, null, found.message);
      }
      const actual =
        step.kind === 'assertText'
          ? (await found.element.innerText({ timeout: ctx.timeoutMs })).trim()
          : await found.element.inputValue({ timeout: ctx.timeoutMs });
      return actual === expected.trim() || actual === expected
        ? judged(
            true,
            found.used,
            'contains_text',
            expected,
            actual,
            `the ${what} of the element by ${found.used} is "${actual}"`,
          )
        : judged(
            false,
            found.used,
            'contains_text',
            expected,
            actual,
            `expected the ${what} "${expected}" in the element by ${found.used}, found "${actual}"`,
          );
    }
  }
}

type StoreStep = Extract<SeleniumStep, { kind: 'storeText' | 'storeValue' | 'storeTitle' | 'storeString' }>;

async function store(step: StoreStep, ctx: ActionContext): Promise<ActionOutcome> {
  const kept = (value: string, locator: string | null, what: string): ActionOutcome => {
    ctx.variables[step.variable] = value;
    return { passed: true, locator, message: `stored ${what} "${value}" as ${step.variable}` };
  };
  switch (step.kind) {
    case 'storeTitle':
      return kept(await ctx.page.title(), null, 'the title');
    case 'storeString':
      return kept(ctx.render(step.value), null, 'the text');
    case 'storeText':
    case 'storeValue': {
      const found = await locate(step.locators, ctx);
      if (!('element' in found)) return found;
      const value =
        step.kind === 'storeText'
          ? (await found.element.innerText({ timeout: ctx.timeoutMs })).trim()
          : await found.element.inputValue({ timeout: ctx.timeoutMs });
      return kept(value, found.used, step.kind === 'storeText' ? 'the text' : 'the value');
    }
  }
}

/** Waits, ending early when the run is stopped. */
async function pause(ms: number, signal: AbortSignal): Promise<ActionOutcome> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
  return { passed: true, locator: null, message: `paused for ${seconds(ms)}` };
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
