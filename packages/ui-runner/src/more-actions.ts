import type { UiAction } from '@aqa/plan';
import {
  type ActionContext,
  type ActionOutcome,
  errorText,
  judgement,
  locate,
  scopeOf,
  seconds,
} from './action-context';
import { locatorsText, locatorText, resolveLocator, type Found } from './locators';
import { expectedText, textMatches } from './expect-actions';

/*
 * The actions the recorders brought to the UI action model (docs/adr/0030-recorded-ui-tests.md §1)
 * beside Taurus's: choosing options by label, value, index or id; keys where the focus is; waiting for
 * an expression; running a script in the page; the element-state assertions; echo and the viewport;
 * the Recorder's waitForElement and element scroll.
 */

type Of<K extends UiAction['kind']> = Extract<UiAction, { kind: K }>;

const POLL_MS = 100;

/** A select's option chosen by label (the default), value, index or id; add/remove keep the others. */
export async function selectOption(
  step: Of<'select'>,
  { element, used }: Found,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const option = ctx.render(step.option).trim();
  const by = step.by ?? 'label';
  const options = await element
    .evaluate((el) =>
      el instanceof HTMLSelectElement
        ? {
            multiple: el.multiple,
            list: [...el.options].map((o) => ({
              label: o.label.trim(),
              value: o.value,
              id: o.id,
              selected: o.selected,
            })),
          }
        : null,
    )
    .catch(() => null);
  if (options === null) {
    return { passed: false, locator: used, message: `expected a select element by ${used}; it is not one` };
  }
  const index = options.list.findIndex((o, i) =>
    by === 'label'
      ? o.label === option
      : by === 'value'
        ? o.value === option
        : by === 'id'
          ? o.id === option
          : String(i) === option,
  );
  if (index === -1) {
    const have = options.list.map(
      (o, i) => `"${by === 'index' ? i : by === 'label' ? o.label : by === 'value' ? o.value : o.id}"`,
    );
    return {
      passed: false,
      locator: used,
      message: `expected ${by === 'label' ? 'the option' : `an option whose ${by} is`} "${option}" in the select by ${used}; it has ${have.join(', ') || 'no options'}`,
    };
  }
  const mode = step.mode ?? 'set';
  if (mode !== 'set' && !options.multiple) {
    return {
      passed: false,
      locator: used,
      message: `expected a select that takes several options by ${used}; it takes one`,
    };
  }
  const chosen = options.list.flatMap((o, i) => {
    if (i === index) return mode === 'remove' ? [] : [{ index: i }];
    return mode !== 'set' && o.selected ? [{ index: i }] : [];
  });
  await element.selectOption(chosen, { timeout: ctx.timeoutMs });
  const label = options.list[index]?.label ?? option;
  const verb = mode === 'remove' ? 'took out' : mode === 'add' ? 'added' : 'chose';
  return { passed: true, locator: used, message: `${verb} "${label}" in the select by ${used}` };
}

/** Keys where the focus is, an expression waited for, an echo, the viewport. */
export async function pageAct(
  step: Of<'keyDown' | 'keyUp' | 'waitForExpression' | 'echo' | 'setViewport' | 'assertUrl'>,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const done = (message: string): ActionOutcome => ({ passed: true, locator: null, message });
  switch (step.kind) {
    case 'assertUrl':
      return await assertUrl(step, ctx);
    case 'keyDown':
      await ctx.page.keyboard.down(step.key);
      return done(`pressed ${step.key} down`);
    case 'keyUp':
      await ctx.page.keyboard.up(step.key);
      return done(`let ${step.key} go`);
    case 'echo':
      return done(ctx.render(step.text));
    case 'setViewport':
      await ctx.page.setViewportSize({ width: step.width, height: step.height });
      return done(`set the viewport to ${step.width}×${step.height}`);
    case 'waitForExpression': {
      const expression = ctx.render(step.expression);
      const timeoutMs = Math.min(step.timeout_ms, ctx.remainingMs());
      const deadline = Date.now() + timeoutMs;
      let last: string;
      for (;;) {
        try {
          const value = await scopeOf(ctx).evaluate(
            // Runs in the page (or the frame the step's target chose), as the Recorder's waitForExpression
            // does in its frame — never in the server's realm.
            (source) => {
              // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- the page's own script
              const value = new Function(`return (${source});`)() as unknown;
              return Promise.resolve(value).then((v) => Boolean(v));
            },
            expression,
          );
          if (value) return done(`${expression} is true`);
          last = 'it was false';
        } catch (error) {
          last = `it failed: ${errorText(error, ctx.timeoutMs)}`;
        }
        if (Date.now() >= deadline) {
          return {
            passed: false,
            locator: null,
            message: `expected ${expression} to be true within ${seconds(timeoutMs)}; ${last}`,
          };
        }
        ctx.signal.throwIfAborted();
        await ctx.page.waitForTimeout(POLL_MS);
      }
    }
  }
}

/** How long an address assertion looks again, as Playwright's expect does (its default 5 s). */
const EXPECT_MS = 5_000;

/** The page's address is (or, with `not`, is not) the expected one, looked at again for up to 5 s. */
async function assertUrl(step: Of<'assertUrl'>, ctx: ActionContext): Promise<ActionOutcome> {
  const judged = judgement(step);
  const expected = ctx.render(step.expected).trim();
  // With retry_ms the action's caller looks again (docs/adr/0030-recorded-ui-tests.md §2); here, once.
  const deadline = Date.now() + (step.retry_ms !== undefined ? 0 : Math.min(EXPECT_MS, ctx.remainingMs()));
  const regexp = step.expectedFlags !== undefined;
  for (;;) {
    const actual = ctx.page.url();
    const holds = textMatches(actual, expected, step.expectedFlags) !== (step.not === true);
    if (holds || Date.now() >= deadline) {
      const shown = expectedText(expected, step.expectedFlags);
      const want = step.not === true ? `not ${shown}` : shown;
      return holds
        ? judged(true, null, 'contains_text', want, actual, `the address is ${actual}`)
        : judged(
            false,
            null,
            'contains_text',
            want,
            actual,
            step.not === true
              ? `expected the address not to ${regexp ? 'match' : 'be'} ${shown}; it is ${actual}`
              : `expected the address ${regexp ? 'to match ' : ''}${shown}, found ${actual}`,
          );
    }
    ctx.signal.throwIfAborted();
    await ctx.page.waitForTimeout(POLL_MS);
  }
}

/**
 * Runs a script in the page as a function body (Selenium IDE's executeScript and executeAsyncScript):
 * a {{name}} in it is passed as a value, as Selenium IDE passes its ${name} as an argument, never pasted
 * into the code; what it returns (awaited when it is a promise) is kept in the variable it names.
 */
export async function executeScript(step: Of<'executeScript'>, ctx: ActionContext): Promise<ActionOutcome> {
  const values: string[] = [];
  const code = step.script.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_all, name: string) => {
    values.push(ctx.variables[name] ?? ctx.render(`{{${name}}}`));
    return `__aqa[${values.length - 1}]`;
  });
  let result: unknown;
  try {
    result = await scopeOf(ctx).evaluate(
      // Runs in the page, as Selenium IDE's executeScript does — never in the server's realm.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- the page's own script
      ({ source, args }) => Promise.resolve(new Function('__aqa', source)(args) as unknown),
      { source: code, args: values },
    );
  } catch (error) {
    return { passed: false, locator: null, message: `the script failed: ${errorText(error, ctx.timeoutMs)}` };
  }
  if (step.variable !== undefined && step.variable !== '') {
    const text = typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result);
    ctx.variables[step.variable] = text;
    return {
      passed: true,
      locator: null,
      message: `ran the script and stored "${text}" as ${step.variable}`,
    };
  }
  return { passed: true, locator: null, message: 'ran the script' };
}

type ElementAssert = Of<
  | 'assertSelectedLabel'
  | 'assertSelectedValue'
  | 'assertChecked'
  | 'assertNotChecked'
  | 'assertPresent'
  | 'assertNotPresent'
  | 'assertVisible'
  | 'assertNotVisible'
  | 'assertEditable'
  | 'assertNotEditable'
>;

/** The element-state assertions: the selected option, checked, present, visible, editable. */
export async function elementAssert(step: ElementAssert, ctx: ActionContext): Promise<ActionOutcome> {
  const judged = judgement(step);
  if (step.kind === 'assertPresent' || step.kind === 'assertNotPresent') {
    const want = step.kind === 'assertPresent';
    const found = await locate(step.locators, ctx);
    const present = 'element' in found;
    const where = locatorTextOf(found);
    return present === want
      ? judged(
          true,
          where,
          'element_exists',
          want ? 'present' : 'absent',
          want ? 'present' : 'absent',
          `the element by ${where} is ${want ? '' : 'not '}on the page`,
        )
      : judged(
          false,
          where,
          'element_exists',
          want ? 'present' : 'absent',
          present ? 'present' : 'absent',
          'element' in found ? `expected no element by ${where}; one is on the page` : found.message,
        );
  }
  const found = await locate(step.locators, ctx);
  if (!('element' in found))
    return judged(false, found.locator, 'element_exists', 'present', null, found.message);
  const { element, used } = found;
  const timeout = ctx.timeoutMs;
  switch (step.kind) {
    case 'assertSelectedLabel':
    case 'assertSelectedValue': {
      const expected = ctx.render(step.expected).trim();
      const what = step.kind === 'assertSelectedLabel' ? 'label' : 'value';
      const actual = await element.evaluate(
        (el, label) => {
          if (!(el instanceof HTMLSelectElement)) return null;
          const option = el.selectedOptions[0];
          return option === undefined ? '' : label ? option.label.trim() : option.value;
        },
        what === 'label',
        { timeout },
      );
      if (actual === null)
        return judged(
          false,
          used,
          'contains_text',
          expected,
          null,
          `expected a select element by ${used}; it is not one`,
        );
      const equal = actual === expected;
      const passed = step.not === true ? !equal : equal;
      return judged(
        passed,
        used,
        'contains_text',
        step.not === true ? `not ${expected}` : expected,
        actual,
        passed
          ? `the selected option's ${what} in the select by ${used} is "${actual}"`
          : step.not === true
            ? `expected the selected option's ${what} in the select by ${used} not to be "${expected}"; it is`
            : `expected the selected option's ${what} "${expected}" in the select by ${used}, found "${actual}"`,
      );
    }
    case 'assertChecked':
    case 'assertNotChecked': {
      const want = step.kind === 'assertChecked';
      const checked = await element.isChecked({ timeout });
      const word = (c: boolean) => (c ? 'checked' : 'not checked');
      return checked === want
        ? judged(
            true,
            used,
            'element_exists',
            word(want),
            word(checked),
            `the element by ${used} is ${word(checked)}`,
          )
        : judged(
            false,
            used,
            'element_exists',
            word(want),
            word(checked),
            `expected the element by ${used} to be ${word(want)}; it is ${word(checked)}`,
          );
    }
    case 'assertVisible':
    case 'assertNotVisible':
    case 'assertEditable':
    case 'assertNotEditable': {
      const editable = step.kind === 'assertEditable' || step.kind === 'assertNotEditable';
      const want = step.kind === 'assertVisible' || step.kind === 'assertEditable';
      const is = editable ? await element.isEditable({ timeout }) : await element.isVisible();
      const adjective = editable ? 'editable' : 'visible';
      const word = (b: boolean) => (b ? adjective : `not ${adjective}`);
      return is === want
        ? judged(true, used, 'element_exists', word(want), word(is), `the element by ${used} is ${word(is)}`)
        : judged(
            false,
            used,
            'element_exists',
            word(want),
            word(is),
            `expected the element by ${used} to be ${word(want)}; it is ${word(is)}`,
          );
    }
  }
}

function locatorTextOf(found: Found | ActionOutcome): string {
  return 'element' in found ? found.used : (found.locator ?? '');
}

const OPERATOR_WORDS = { '>=': 'at least', '==': 'exactly', '<=': 'at most' } as const;

/** What the first locator that finds anything finds: how many, and the first way one differs, if any. */
interface Matched {
  count: number;
  used: string | null;
  mismatch: string | null;
}

async function matchElements(step: Of<'waitForElement'>, ctx: ActionContext): Promise<Matched> {
  for (const locator of step.locators) {
    const element = await resolveLocator(ctx.page, locator).catch(() => null);
    const count = element === null ? 0 : await element.count().catch(() => 0);
    if (element === null || count === 0) continue;
    const used = locatorText(locator);
    if (step.attributes === undefined && step.properties === undefined)
      return { count, used, mismatch: null };
    const mismatch = await element
      .evaluateAll(
        (elements, { attributes, properties }) => {
          // Puppeteer Replay's deep match: every key of the expected value is on the actual one, equal.
          const deepMatch = (want: unknown, have: unknown): boolean => {
            if (want === have) return true;
            if (!(want instanceof Object) || !(have instanceof Object)) return false;
            return Object.entries(want).every(([k, v]) => deepMatch(v, (have as Record<string, unknown>)[k]));
          };
          for (const [i, el] of elements.entries()) {
            for (const [name, value] of Object.entries(attributes ?? {})) {
              const actual = el.getAttribute(name);
              if (actual !== value) {
                const found = actual === null ? 'none' : `"${actual}"`;
                return `element ${i + 1} has the attribute ${name} ${found}, not "${value}"`;
              }
            }
            for (const [name, value] of Object.entries(properties ?? {})) {
              if (!deepMatch(value, (el as unknown as Record<string, unknown>)[name])) {
                return `element ${i + 1}'s property ${name} is not ${JSON.stringify(value)}`;
              }
            }
          }
          return null;
        },
        { attributes: step.attributes, properties: step.properties },
      )
      .catch((error: unknown) => `the elements could not be read: ${errorText(error, ctx.timeoutMs)}`);
    return { count, used, mismatch };
  }
  return { count: 0, used: null, mismatch: null };
}

/**
 * The Recorder's waitForElement, as Puppeteer Replay runs it: the elements of the first selector that
 * finds any are counted against `operator` `count` and checked for the attributes and properties; the
 * step waits until that holds — or, with `visible` false, until it does not.
 */
export async function waitForElement(step: Of<'waitForElement'>, ctx: ActionContext): Promise<ActionOutcome> {
  const timeoutMs = Math.min(step.timeout_ms, ctx.remainingMs());
  const deadline = Date.now() + timeoutMs;
  const compare = {
    '>=': (a: number, b: number) => a >= b,
    '==': (a: number, b: number) => a === b,
    '<=': (a: number, b: number) => a <= b,
  }[step.operator];
  const tried = locatorsText(step.locators);
  const also = [
    ...(step.attributes === undefined ? [] : ['the attributes']),
    ...(step.properties === undefined ? [] : ['the properties']),
  ];
  const expected = `${OPERATOR_WORDS[step.operator]} ${step.count} element${step.count === 1 ? '' : 's'} by ${tried}${
    also.length === 0 ? '' : ` with ${also.join(' and ')} given`
  }`;
  for (;;) {
    const seen = await matchElements(step, ctx);
    const holds = compare(seen.count, step.count) && seen.mismatch === null;
    const found = `found ${seen.count}${seen.used === null ? '' : ` by ${seen.used}`}${
      seen.mismatch === null ? '' : `, and ${seen.mismatch}`
    }`;
    if (holds === step.visible) {
      return {
        passed: true,
        locator: seen.used ?? tried,
        message: step.visible
          ? `there are ${expected}: ${found}`
          : `there are no longer ${expected}: ${found}`,
      };
    }
    if (Date.now() >= deadline) {
      return {
        passed: false,
        locator: seen.used ?? tried,
        message: step.visible
          ? `expected ${expected} within ${seconds(timeoutMs)}; ${found}`
          : `expected ${expected} to stop being there within ${seconds(timeoutMs)}; ${found}`,
      };
    }
    ctx.signal.throwIfAborted();
    await ctx.page.waitForTimeout(POLL_MS);
  }
}

/** The Recorder's scroll of an element: into view first, then its scrollLeft to x and scrollTop to y. */
export async function scrollElement(step: Of<'scroll'>, ctx: ActionContext): Promise<ActionOutcome> {
  const found = await locate(step.locators, ctx);
  if (!('element' in found)) return found;
  const { element, used } = found;
  try {
    await element.scrollIntoViewIfNeeded({ timeout: ctx.timeoutMs });
    await element.evaluate(
      (el, { x, y }) => {
        el.scrollTop = y;
        el.scrollLeft = x;
      },
      { x: step.x, y: step.y },
      { timeout: ctx.timeoutMs },
    );
  } catch (error) {
    return {
      passed: false,
      locator: used,
      message: `could not scroll the element by ${used}: ${errorText(error, ctx.timeoutMs)}`,
    };
  }
  return {
    passed: true,
    locator: used,
    message: `scrolled the element by ${used} to x ${step.x}, y ${step.y}`,
  };
}
