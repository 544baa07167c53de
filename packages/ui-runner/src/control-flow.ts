import type { FlowWalker, UiAction } from '@aqa/plan';
import { type ActionContext, type ActionOutcome, errorText, scopeOf } from './action-context';

/*
 * Selenium IDE's control flow run (docs/adr/0030-recorded-ui-tests.md §5): the test stays a flat list,
 * walked by the jump table of @aqa/plan's FlowWalker; this answers each flow command's test. A
 * condition is a JavaScript expression run in the page, as Selenium IDE runs it (`return (…)`), each
 * {{name}} passed in as a value — never pasted into the code; `times` counts its visits, `forEach` walks
 * an array variable (JSON, as executeScript and storeJson keep one) into its iterator variable.
 */

type Control = Extract<UiAction, { kind: 'control' }>;

export interface FlowTest {
  outcome: ActionOutcome;
  /** The test's answer (true for a command that is not tested). */
  value: boolean;
}

/** Runs a condition in the page: {{name}} becomes a value passed in, as Selenium IDE's ${name}. */
export async function evaluateCondition(expression: string, ctx: ActionContext): Promise<boolean> {
  const values: string[] = [];
  const code = expression.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_all, name: string) => {
    values.push(ctx.variables[name] ?? ctx.render(`{{${name}}}`));
    return `__aqa[${values.length - 1}]`;
  });
  return await scopeOf(ctx).evaluate(
    // Runs in the page, as Selenium IDE's evaluateConditional does — never in the server's realm.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- the page's own script
    ({ source, args }) => Promise.resolve(new Function('__aqa', source)(args) as unknown).then(Boolean),
    { source: `return (${code});`, args: values },
  );
}

/** A flow command at position `at`: its test (when it has one now) and its words. */
export async function runFlow(
  step: Control,
  at: number,
  walker: FlowWalker,
  ctx: ActionContext,
): Promise<FlowTest> {
  const pass = (message: string, value: boolean): FlowTest => ({
    outcome: { passed: true, locator: null, message },
    value,
  });
  const fail = (message: string): FlowTest => ({
    outcome: { passed: false, locator: null, message },
    value: false,
  });
  if (!walker.tests(at)) {
    const words: Record<string, string> = {
      do: 'the loop begins',
      else: 'no branch before it ran',
      end: 'the block ends',
      elseIf: 'a branch before it ran: skipped to the end',
    };
    return pass(words[step.flow] ?? step.flow, true);
  }
  const limit = walker.limitProblem(at);
  if (limit !== null) return fail(limit);
  const round = walker.visitsOf(at);
  switch (step.flow) {
    case 'times': {
      const text = ctx.render(step.expression);
      const n = Math.floor(Number(text));
      if (text.trim() === '' || Number.isNaN(n)) {
        return fail(`"${text}" is not a number of times (Selenium IDE: Invalid number provided as a target)`);
      }
      return round < n
        ? pass(`time ${round + 1} of ${n}`, true)
        : pass(`ran ${n} time${n === 1 ? '' : 's'}`, false);
    }
    case 'forEach': {
      const raw = ctx.variables[step.expression];
      let list: unknown;
      try {
        list = raw === undefined ? undefined : JSON.parse(raw);
      } catch {
        list = undefined;
      }
      if (!Array.isArray(list)) {
        return fail(
          raw === undefined
            ? `there is no variable ${step.expression} (an array, as executeScript or storeJson keeps one)`
            : `the variable ${step.expression} is not an array: "${raw.slice(0, 100)}"`,
        );
      }
      if (round >= list.length)
        return pass(`went through the ${list.length} items of ${step.expression}`, false);
      const item: unknown = list[round];
      const text = typeof item === 'string' ? item : JSON.stringify(item);
      if (step.variable !== undefined) ctx.variables[step.variable] = text;
      return pass(`item ${round + 1} of ${list.length}: ${step.variable ?? 'it'} = "${text}"`, true);
    }
    default: {
      try {
        const value = await evaluateCondition(step.expression, ctx);
        return pass(`${ctx.render(step.expression)} is ${value ? 'true' : 'false'}`, value);
      } catch (error) {
        return fail(`the condition ${step.expression} could not be run: ${errorText(error, ctx.timeoutMs)}`);
      }
    }
  }
}
