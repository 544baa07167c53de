import type { UiFlow } from './ui-action';

/*
 * Selenium IDE's control flow as a jump table (docs/adr/0030-recorded-ui-tests.md §5): a test stays a
 * flat list of actions; `if`/`elseIf`/`else`/`end`, `while`/`times`/`forEach` … `end` and `do` …
 * `repeatIf` are actions whose outcome (a condition true or false) says where the run goes next. The
 * structure is checked first, with Selenium IDE's own messages, naming the command's position; then
 * each position gets where it goes. Pure: no browser, no clock.
 */

/** The most times a loop's command is visited when its value gives no limit (Selenium IDE's). */
export const LOOP_LIMIT_DEFAULT = 1000;

export interface ControlFlowProblem {
  /** The position (0-based) of the command the problem is at. */
  index: number;
  message: string;
}

const LOOPS: ReadonlySet<UiFlow> = new Set(['while', 'times', 'forEach']);

/**
 * The first problem in the structure, as Selenium IDE's syntax validation words it, or null when every
 * block is closed. `flows[i]` is the flow command at position i, or null for any other action.
 */
export function controlFlowProblem(flows: readonly (UiFlow | null)[]): ControlFlowProblem | null {
  const open: { flow: UiFlow; index: number }[] = [];
  const top = (): UiFlow | undefined => open.at(-1)?.flow;
  const inIf = (): boolean => top() === 'if' || top() === 'elseIf' || top() === 'else';
  for (const [index, flow] of flows.entries()) {
    switch (flow) {
      case null:
        break;
      case 'if':
      case 'while':
      case 'times':
      case 'forEach':
      case 'do':
        open.push({ flow, index });
        break;
      case 'elseIf':
        if (!inIf()) return { index, message: 'An else if used outside of an if block' };
        if (top() === 'else') return { index, message: 'Incorrect command order of else if / else' };
        open.push({ flow, index });
        break;
      case 'else':
        if (!inIf()) return { index, message: 'An else used outside of an if block' };
        if (top() === 'else') return { index, message: 'Too many else commands used' };
        open.push({ flow, index });
        break;
      case 'end': {
        while (top() === 'elseIf' || top() === 'else') open.pop();
        const opener = top();
        if (opener === undefined || opener === 'do') {
          return { index, message: 'Use of end without an opening keyword' };
        }
        open.pop();
        break;
      }
      case 'repeatIf':
        if (top() !== 'do') return { index, message: 'A repeat if used without a do block' };
        open.pop();
        break;
    }
  }
  const unclosed = open.at(-1);
  return unclosed === undefined
    ? null
    : { index: unclosed.index, message: `Incomplete block at ${unclosed.flow}` };
}

/** Where each position goes. Ordinary actions go on to the next position. */
export interface Jump {
  /** When the condition is false (if, elseIf, while, times, forEach) — or, for repeatIf, true. */
  jump: number;
  /**
   * For elseIf and else reached by going on from the branch before (that branch ran): the position
   * after the block's end. For a loop's end: the loop's command.
   */
  skip: number;
}

/**
 * The jump table of a structure that controlFlowProblem accepts (it throws on any other). An `if`'s or
 * `elseIf`'s false jumps to the next `elseIf` (which is then tested), to the position after `else`, or
 * to `end`; a loop's false jumps after its `end`, whose skip goes back to the loop; `repeatIf`'s
 * true jumps to the position after its `do`.
 */
export function jumpTable(flows: readonly (UiFlow | null)[]): Jump[] {
  const problem = controlFlowProblem(flows);
  if (problem !== null) throw new Error(`command ${problem.index + 1}: ${problem.message}`);
  const table: Jump[] = flows.map((_f, i) => ({ jump: i + 1, skip: i + 1 }));
  // Each open block: its opener and the branch commands (elseIf, else) seen so far.
  const open: { index: number; branches: number[] }[] = [];
  for (const [index, flow] of flows.entries()) {
    switch (flow) {
      case 'if':
      case 'while':
      case 'times':
      case 'forEach':
      case 'do':
        open.push({ index, branches: [] });
        break;
      case 'elseIf':
      case 'else':
        open.at(-1)!.branches.push(index);
        break;
      case 'end': {
        const block = open.pop()!;
        const opener = flows[block.index]!;
        if (LOOPS.has(opener)) {
          table[block.index] = { jump: index + 1, skip: index + 1 };
          table[index] = { jump: block.index, skip: block.index };
          break;
        }
        // An if: each test jumps to the next branch; a branch reached by going on skips past the end.
        const tests = [block.index, ...block.branches];
        for (const [k, at] of tests.entries()) {
          const next = tests[k + 1];
          // The last test jumps to the end itself (which goes on), never past it onto an outer branch.
          const jump = next === undefined ? index : flows[next] === 'else' ? next + 1 : next;
          table[at] = { jump, skip: at === block.index ? jump : index + 1 };
        }
        break;
      }
      case 'repeatIf': {
        const block = open.pop()!;
        table[index] = { jump: block.index + 1, skip: index + 1 };
        break;
      }
      default:
        break;
    }
  }
  return table;
}

/** What a flow command's test answered: true, false, or a failure that stops the test. */
export type FlowOutcome = { value: boolean } | { error: string };

/**
 * Walks the flat list by the jump table: `at` is where the run is, `arrivedByJump` whether it got there
 * by a jump (an elseIf or else reached by a jump is tested or entered; reached by going on, it skips
 * past the end). Answers the next position, or where the test fails.
 */
export class FlowWalker {
  private readonly table: Jump[];
  private readonly visits: number[];
  private arrivedByJump = false;

  constructor(
    private readonly flows: readonly (UiFlow | null)[],
    private readonly limits: readonly (number | undefined)[],
  ) {
    this.table = jumpTable(flows);
    this.visits = flows.map(() => 0);
  }

  /** Whether the flow command at `at` is to be tested now (else it is passed by without a test). */
  tests(at: number): boolean {
    const flow = this.flows[at];
    if (flow === 'elseIf') return this.arrivedByJump;
    return flow === 'if' || flow === 'while' || flow === 'times' || flow === 'forEach' || flow === 'repeatIf';
  }

  /** The loop command's visits so far (times' count so far, forEach's index). */
  visitsOf(at: number): number {
    return this.visits[at] ?? 0;
  }

  /**
   * Before a loop command is tested: the Selenium IDE limit check ("Max retry limit exceeded"), null
   * when the loop may go round again.
   */
  limitProblem(at: number): string | null {
    const flow = this.flows[at];
    if (flow !== 'while' && flow !== 'times' && flow !== 'forEach' && flow !== 'repeatIf') return null;
    const limit = this.limits[at] ?? LOOP_LIMIT_DEFAULT;
    return (this.visits[at] ?? 0) >= limit
      ? `Max retry limit exceeded (${limit} times). To override it, specify a new limit in the value input field.`
      : null;
  }

  /** The position after `at`, given its test's answer (ignored for an action that is not tested). */
  next(at: number, value: boolean): number {
    const flow = this.flows[at];
    const entry = this.table[at]!;
    let to = at + 1;
    let jumped = false;
    switch (flow) {
      case null:
      case undefined:
      case 'do':
        to = at + 1;
        break;
      case 'if':
        to = value ? at + 1 : entry.jump;
        jumped = !value && this.flows[to] === 'elseIf';
        break;
      case 'elseIf':
        if (!this.arrivedByJump) {
          to = entry.skip;
        } else {
          to = value ? at + 1 : entry.jump;
          jumped = !value && this.flows[to] === 'elseIf';
        }
        break;
      case 'else':
        to = this.arrivedByJump ? at + 1 : entry.skip;
        break;
      case 'end':
        to = entry.skip;
        break;
      case 'while':
      case 'times':
      case 'forEach':
        this.visits[at] = (this.visits[at] ?? 0) + 1;
        to = value ? at + 1 : entry.jump;
        // A loop that ends starts counting afresh when the run comes to it again (an outer loop).
        if (!value) this.visits[at] = 0;
        break;
      case 'repeatIf':
        this.visits[at] = (this.visits[at] ?? 0) + 1;
        to = value ? entry.jump : at + 1;
        if (!value) this.visits[at] = 0;
        break;
    }
    this.arrivedByJump = jumped;
    return to;
  }
}
