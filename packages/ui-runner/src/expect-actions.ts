import { compileUserPattern, UserPatternError, type UiAction } from '@aqa/plan';
import { type ActionContext, type ActionOutcome, judgement, locate, seconds } from './action-context';
import { locatorText, resolveLocator } from './locators';

/*
 * Playwright's web-first expectations in the UI action model (docs/adr/0030-recorded-ui-tests.md §2): an
 * assertion with `retry_ms` looks again until it holds, for up to 5 s (or the expect's own timeout) as
 * Playwright's expect does, and a failure says how long it looked; the matchers codegen scripts use
 * beside the element-state ones — toBeEmpty, toHaveAttribute, toHaveCount — and a text matched by a
 * regular expression.
 */

type Of<K extends UiAction['kind']> = Extract<UiAction, { kind: K }>;

const POLL_MS = 100;

/** Runs the assertion until it holds or `retryMs` has passed; a failure says it looked again. */
export async function retried(
  retryMs: number,
  ctx: ActionContext,
  once: (ctx: ActionContext) => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  const limit = Math.min(retryMs, ctx.remainingMs());
  const deadline = Date.now() + limit;
  // Each look finds the element at once; the looking again is this loop's.
  const quick: ActionContext = { ...ctx, locateWaitMs: 0 };
  for (;;) {
    const outcome = await once(quick);
    if (outcome.passed) return outcome;
    if (Date.now() >= deadline) {
      const message = `${outcome.message} (looked again for ${seconds(limit)})`;
      return {
        ...outcome,
        message,
        ...(outcome.detail === undefined ? {} : { detail: { ...outcome.detail, message } }),
      };
    }
    ctx.signal.throwIfAborted();
    await ctx.page.waitForTimeout(POLL_MS);
  }
}

/**
 * Whether a text is the expected one: with flags, the expected text is a regular expression found in
 * it (on the linear-time engine every user pattern runs on, docs/adr/0022-linear-time-patterns.md);
 * otherwise equal, or with `contains` holding it. Throws UserPatternError for a pattern RE2 cannot run.
 */
export function textMatches(
  actual: string,
  expected: string,
  flags: string | undefined,
  contains = false,
): boolean {
  if (flags !== undefined) return compileUserPattern(expected, flags).test(actual);
  return contains ? actual.includes(expected.trim()) : actual === expected.trim() || actual === expected;
}

/** An expected text as messages write it: "Hello", /hello/i. */
export function expectedText(expected: string, flags: string | undefined): string {
  return flags === undefined ? `"${expected}"` : `/${expected}/${flags}`;
}

/** toBeEmpty, toHaveAttribute, toHaveCount. */
export async function expectAssert(
  step: Of<'assertEmpty' | 'assertNotEmpty' | 'assertAttribute' | 'assertCount'>,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const judged = judgement(step);
  if (step.kind === 'assertCount') {
    const [locator] = step.locators;
    if (locator === undefined) throw new Error('the action has no locator');
    const used = locatorText(locator);
    const count = await (await resolveLocator(ctx.page, locator)).count().catch(() => 0);
    const passed = (count === step.count) !== (step.not === true);
    const want = `${step.not === true ? 'not ' : ''}${step.count}`;
    return judged(
      passed,
      used,
      'element_exists',
      want,
      String(count),
      passed
        ? `${count} element${count === 1 ? '' : 's'} by ${used}`
        : `expected ${step.not === true ? 'other than ' : ''}${step.count} element${step.count === 1 ? '' : 's'} by ${used}, found ${count}`,
    );
  }
  const found = await locate(step.locators, ctx);
  if (!('element' in found))
    return judged(false, found.locator, 'element_exists', 'present', null, found.message);
  const { element, used } = found;
  if (step.kind === 'assertAttribute') {
    const actual = await element.getAttribute(step.attribute, { timeout: ctx.timeoutMs });
    const expected = step.expected === undefined ? undefined : ctx.render(step.expected);
    let holds: boolean;
    try {
      holds =
        actual !== null && (expected === undefined || textMatches(actual, expected, step.expectedFlags));
    } catch (error) {
      if (!(error instanceof UserPatternError)) throw error;
      return judged(
        false,
        used,
        'regex',
        expected ?? '',
        actual,
        `/${expected}/ cannot be run: ${error.message}`,
      );
    }
    const passed = holds !== (step.not === true);
    const what =
      expected === undefined
        ? `the attribute ${step.attribute}`
        : `the attribute ${step.attribute} ${expectedText(expected, step.expectedFlags)}`;
    const has = actual === null ? `it has no ${step.attribute}` : `it has ${step.attribute}="${actual}"`;
    return judged(
      passed,
      used,
      'contains_text',
      `${step.not === true ? 'not ' : ''}${expected ?? step.attribute}`,
      actual,
      passed
        ? `the element by ${used}: ${has}`
        : `expected the element by ${used} ${step.not === true ? 'not ' : ''}to have ${what}; ${has}`,
    );
  }
  const empty = await element.evaluate(
    // Playwright's toBeEmpty: a field without a value, or any other element without text.
    (el) =>
      el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
        ? el.value === ''
        : (el.textContent ?? '').trim() === '',
    undefined,
    { timeout: ctx.timeoutMs },
  );
  const want = step.kind === 'assertEmpty';
  const word = (b: boolean) => (b ? 'empty' : 'not empty');
  return judged(
    empty === want,
    used,
    'element_exists',
    word(want),
    word(empty),
    empty === want
      ? `the element by ${used} is ${word(empty)}`
      : `expected the element by ${used} to be ${word(want)}; it is ${word(empty)}`,
  );
}
