import type { Locator } from 'playwright-core';
import {
  compileUserPattern,
  UserPatternError,
  type UiAction,
  type UiLocator,
  type UiWaitState,
} from '@aqa/plan';
import { Dialogs } from './dialogs';
import { runIdeAction } from './ide-actions';
import { readKeys } from './keys';
import { runWindowAction } from './windows';
import {
  type ActionContext,
  type ActionOutcome,
  errorText,
  judgement,
  locate,
  scopeOf,
  seconds,
} from './action-context';
import { locatorsText, resolveLocator, type Found } from './locators';
import {
  elementAssert,
  executeScript,
  pageAct,
  scrollElement,
  selectOption,
  waitForElement,
} from './more-actions';
import { expectAssert, expectedText, retried, textMatches } from './expect-actions';

export { type ActionContext, type ActionOutcome, errorText, seconds };

type SeleniumStep = UiAction;
type SeleniumLocator = UiLocator;
type SeleniumWaitState = UiWaitState;

/*
 * One action of the UI action model run by Playwright (docs/reference/02-running.md §3 "Selenium-style
 * scripts", docs/adr/0030-recorded-ui-tests.md §1), one function per family: navigation, element
 * actions, waits, assertions, stores, pauses and screenshots. Each answers whether it passed and, in words, what it did or what was expected and
 * found, with the locator it used (or all it tried). Assertions are also judged as validation details.
 */

/** How long after a click, a key press or a submit a navigation may start and still be waited for. */
const NAVIGATION_START_MS = 250;
const POLL_MS = 25;

/** The actions that ask nothing of the window the actions act in. */
const WINDOWLESS = new Set<SeleniumStep['kind']>([
  'selectWindow',
  'waitForWindow',
  'echo',
  'pauseFor',
  'storeString',
  'assertVariable',
]);

export async function runAction(step: SeleniumStep, ctx: ActionContext): Promise<ActionOutcome> {
  // A closed window (Selenium IDE's close, a codegen popup's close()) answers nothing until another is selected.
  if (ctx.page.isClosed() && !WINDOWLESS.has(step.kind)) {
    return {
      passed: false,
      locator: null,
      message: 'the window the actions act in was closed: select another window before this step',
    };
  }
  try {
    // Playwright's expect looks again until it holds (docs/adr/0030-recorded-ui-tests.md §2).
    if (step.retry_ms !== undefined)
      return await retried(step.retry_ms, ctx, (quick) => runOnce(step, quick));
    return await runOnce(step, ctx);
  } catch (error) {
    return { passed: false, message: errorText(error, ctx.timeoutMs), locator: null };
  }
}

async function runOnce(step: SeleniumStep, ctx: ActionContext): Promise<ActionOutcome> {
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
      case 'hover':
      case 'check':
      case 'uncheck':
      case 'focus':
        return await act(step, ctx);
      case 'keyDown':
      case 'keyUp':
      case 'assertUrl':
      case 'waitForExpression':
      case 'echo':
      case 'setViewport':
        return await pageAct(step, ctx);
      case 'executeScript':
        return await executeScript(step, ctx);
      case 'waitForElement':
        return await waitForElement(step, ctx);
      case 'scroll':
        return await scrollElement(step, ctx);
      case 'waitFor':
        return await waitFor(step.locators, step.state, Math.min(step.timeout_ms, ctx.remainingMs()), ctx);
      case 'assertText':
      case 'assertValue':
      case 'assertTitle':
      case 'assertPage':
        return await assert(step, ctx);
      case 'assertSelectedLabel':
      case 'assertSelectedValue':
      case 'assertChecked':
      case 'assertNotChecked':
      case 'assertPresent':
      case 'assertNotPresent':
      case 'assertVisible':
      case 'assertNotVisible':
      case 'assertEditable':
      case 'assertNotEditable':
        return await elementAssert(step, ctx);
      case 'assertEmpty':
      case 'assertNotEmpty':
      case 'assertAttribute':
      case 'assertCount':
        return await expectAssert(step, ctx);
      case 'storeText':
      case 'storeValue':
      case 'storeTitle':
      case 'storeString':
        return await store(step, ctx);
      case 'pauseFor':
        return await pause(Math.min(step.ms, ctx.remainingMs()), ctx.signal);
      case 'mouse':
      case 'dragAndDrop':
      case 'editContent':
      case 'storeAttribute':
      case 'storeCount':
      case 'assertVariable':
        return await runIdeAction(step, ctx);
      case 'dialog':
        return await Dialogs.of(ctx.page).run(step, ctx);
      case 'selectFrame':
      case 'selectWindow':
      case 'storeWindowHandle':
      case 'closeWindow':
      case 'waitForWindow':
        return await runWindowAction(step, ctx);
      case 'control':
        // Control flow is walked by the step (page-step.ts), which answers its tests (control-flow.ts).
        return { passed: false, locator: null, message: 'control flow runs only as part of a test' };
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
  // A navigation acts in the top of the page again, as WebDriver's does.
  ctx.frame = undefined;
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
  {
    kind:
      | 'click'
      | 'doubleClick'
      | 'type'
      | 'keys'
      | 'select'
      | 'submit'
      | 'hover'
      | 'check'
      | 'uncheck'
      | 'focus';
  }
>;

/** What an element action does, for the message when the browser refuses it. */
const DOING: Record<ElementStep['kind'], string> = {
  click: 'click',
  doubleClick: 'double-click',
  type: 'type into',
  keys: 'press keys in',
  select: 'choose an option in',
  submit: 'submit the form of',
  hover: 'move the mouse over',
  check: 'check',
  uncheck: 'uncheck',
  focus: 'focus',
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
    case 'doubleClick': {
      const verb = step.kind === 'click' ? 'clicked' : 'double-clicked';
      const button = step.button ?? 'left';
      if (button === 'back' || button === 'forward') {
        // Playwright's mouse has three buttons; the fourth and fifth are sent as the events a browser sends.
        await element.evaluate(
          (el, { which, twice }) => {
            const init = { bubbles: true, cancelable: true, composed: true, button: which, buttons: 0 };
            for (let n = 0; n < (twice ? 2 : 1); n++) {
              for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'auxclick']) {
                const Event = type.startsWith('pointer') ? PointerEvent : MouseEvent;
                el.dispatchEvent(new Event(type, { ...init, detail: n + 1 }));
              }
            }
          },
          { which: button === 'back' ? 3 : 4, twice: step.kind === 'doubleClick' },
        );
        return done(`${verb} the element by ${used} with the ${button} button`);
      }
      const options = {
        timeout,
        button,
        ...(step.offset === undefined ? {} : { position: step.offset }),
      } as const;
      await withNavigation(ctx, () =>
        step.kind === 'click' ? element.click(options) : element.dblclick(options),
      );
      return done(`${verb} the element by ${used}${button === 'left' ? '' : ` with the ${button} button`}`);
    }
    case 'hover':
      await element.hover({ timeout });
      return done(`moved the mouse over the element by ${used}`);
    case 'focus':
      await element.focus({ timeout });
      return done(`focused the element by ${used}`);
    case 'check':
    case 'uncheck':
      // As Selenium IDE: checking a checked box (or unchecking an unchecked one) changes nothing.
      await withNavigation(ctx, () =>
        step.kind === 'check' ? element.check({ timeout }) : element.uncheck({ timeout }),
      );
      return done(`${step.kind === 'check' ? 'checked' : 'unchecked'} the element by ${used}`);
    case 'type': {
      const text = ctx.render(step.text);
      // The Recorder writes a choice in a select as a change to its value, which Replay selects.
      const values = await element.evaluate(
        (el) => (el instanceof HTMLSelectElement ? [...el.options].map((o) => o.value) : null),
        undefined,
        { timeout },
      );
      if (values !== null) {
        if (!values.includes(text)) {
          return {
            passed: false,
            locator: used,
            message: `expected an option with the value "${text}" in the select by ${used}; it has ${values.map((v) => `"${v}"`).join(', ')}`,
          };
        }
        await element.selectOption({ value: text }, { timeout });
        return done(`chose the option with the value "${text}" in the select by ${used}`);
      }
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
    case 'select':
      return await selectOption(step, { element, used }, ctx);
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

type PositiveState = 'present' | 'visible' | 'clickable' | 'editable';

/** Whether an element is so: present (in the page), visible, clickable (visible and enabled), editable. */
async function holds(element: Locator, state: PositiveState): Promise<boolean> {
  if ((await element.count()) === 0) return false;
  if (state === 'present') return true;
  if (!(await element.isVisible())) return false;
  if (state === 'editable') return await element.isEditable();
  return state === 'visible' || (await element.isEnabled());
}

async function waitFor(
  locators: readonly SeleniumLocator[],
  state: SeleniumWaitState,
  timeoutMs: number,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const negated = state.startsWith('not');
  const positive = (negated ? state.slice(3) : state) as PositiveState;
  const tried = locatorsText(locators);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let which: string | null = null;
    for (const locator of locators) {
      const element = await resolveLocator(scopeOf(ctx), locator).catch(() => null);
      if (element !== null && (await holds(element.first(), positive).catch(() => false))) {
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
  const judged = judgement(step);
  switch (step.kind) {
    case 'assertTitle': {
      const expected = ctx.render(step.expected);
      const title = await ctx.page.title();
      if (step.expectedFlags !== undefined) {
        // Playwright's toHaveTitle(/…/): the title matches the pattern.
        const want = expectedText(expected, step.expectedFlags);
        const passed = textMatches(title, expected, step.expectedFlags) !== (step.not === true);
        return judged(
          passed,
          null,
          'regex',
          step.not === true ? `not ${want}` : want,
          title,
          passed
            ? `the title is "${title}"`
            : `expected the title ${step.not === true ? 'not ' : ''}to match ${want}, got "${title}"`,
        );
      }
      if (step.not === true) {
        return title.trim() !== expected.trim()
          ? judged(
              true,
              null,
              'page_title',
              `not ${expected}`,
              title,
              `the title is "${title}", not "${expected}"`,
            )
          : judged(
              false,
              null,
              'page_title',
              `not ${expected}`,
              title,
              `expected the title not to be "${expected}"; it is`,
            );
      }
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
      const equal = textMatches(actual, expected, step.expectedFlags, step.contains === true);
      const shown = expectedText(expected, step.expectedFlags);
      if (step.not === true) {
        return equal
          ? judged(
              false,
              found.used,
              'contains_text',
              `not ${expected}`,
              actual,
              `expected the ${what} of the element by ${found.used} not to ${step.expectedFlags !== undefined ? 'match' : step.contains === true ? 'contain' : 'be'} ${shown}; it is "${actual}"`,
            )
          : judged(
              true,
              found.used,
              'contains_text',
              `not ${expected}`,
              actual,
              `the ${what} of the element by ${found.used} is "${actual}", not ${shown}`,
            );
      }
      return equal
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
            `expected the ${what} ${step.expectedFlags !== undefined ? 'to match ' : step.contains === true ? 'to contain ' : ''}${shown} in the element by ${found.used}, found "${actual}"`,
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
export async function pause(ms: number, signal: AbortSignal): Promise<ActionOutcome> {
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
