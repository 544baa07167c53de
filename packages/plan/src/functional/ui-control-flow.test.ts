import { describe, expect, it } from 'vitest';
import type { UiFlow } from './ui-action';
import { controlFlowProblem, FlowWalker, LOOP_LIMIT_DEFAULT } from './ui-control-flow';

/*
 * The jump table of Selenium IDE's control flow (docs/adr/0030-recorded-ui-tests.md §5): structures
 * refused with Selenium IDE's own messages at the right position, and flat lists walked as Selenium
 * IDE's playback tree walks them — the positions visited are the trace.
 */

type Row = string;

/** Walks the rows: a flow row's test takes the next answer of its `answers` list (by row label). */
function trace(rows: Row[], answers: Record<number, boolean[]> = {}, limits: (number | undefined)[] = []) {
  const flows = rows.map((r) => (r.startsWith('#') ? null : (r as UiFlow)));
  const walker = new FlowWalker(flows, limits);
  const visited: number[] = [];
  let at = 0;
  while (at < rows.length) {
    visited.push(at);
    if (visited.length > 5000) throw new Error('runaway');
    const problem = walker.limitProblem(at);
    if (problem !== null) return { visited, problem };
    const value = walker.tests(at) ? (answers[at]?.shift() ?? false) : true;
    at = walker.next(at, value);
  }
  return { visited, problem: null };
}

describe('structure, as Selenium IDE validates it', () => {
  const problem = (rows: (UiFlow | null)[]) => controlFlowProblem(rows);
  it.each([
    [['if', null, 'end'], null],
    [['if', null, 'elseIf', null, 'else', null, 'end'], null],
    [['do', null, 'repeatIf'], null],
    [['while', 'if', 'end', 'end'], null],
    [['if', null], { index: 0, message: 'Incomplete block at if' }],
    [['while', 'times', 'end'], { index: 0, message: 'Incomplete block at while' }],
    [[null, 'end'], { index: 1, message: 'Use of end without an opening keyword' }],
    [['do', 'end'], { index: 1, message: 'Use of end without an opening keyword' }],
    [['else'], { index: 0, message: 'An else used outside of an if block' }],
    [['while', 'elseIf', 'end'], { index: 1, message: 'An else if used outside of an if block' }],
    [['if', 'else', 'else', 'end'], { index: 2, message: 'Too many else commands used' }],
    [['if', 'else', 'elseIf', 'end'], { index: 2, message: 'Incorrect command order of else if / else' }],
    [['repeatIf'], { index: 0, message: 'A repeat if used without a do block' }],
    [['do', 'if', 'repeatIf', 'end'], { index: 2, message: 'A repeat if used without a do block' }],
  ] as [(UiFlow | null)[], unknown][])('%j → %j', (rows, expected) => {
    expect(problem(rows)).toEqual(expected);
  });
});

describe('walking the flat list', () => {
  it('if true runs its branch and skips the others', () => {
    const rows = ['if', '#a', 'elseIf', '#b', 'else', '#c', 'end', '#after'];
    expect(trace(rows, { 0: [true] }).visited).toEqual([0, 1, 2, 7]);
  });
  it('if false, elseIf true', () => {
    const rows = ['if', '#a', 'elseIf', '#b', 'else', '#c', 'end', '#after'];
    expect(trace(rows, { 0: [false], 2: [true] }).visited).toEqual([0, 2, 3, 4, 7]);
  });
  it('every test false runs the else', () => {
    const rows = ['if', '#a', 'elseIf', '#b', 'else', '#c', 'end', '#after'];
    expect(trace(rows, { 0: [false], 2: [false] }).visited).toEqual([0, 2, 5, 6, 7]);
  });
  it('an if false without else goes to its end', () => {
    expect(trace(['if', '#a', 'end', '#after']).visited).toEqual([0, 2, 3]);
  });
  it("an inner if's false does not fall onto the outer if's elseIf", () => {
    const rows = ['if', 'if', '#a', 'end', 'elseIf', '#b', 'end', '#after'];
    expect(trace(rows, { 0: [true], 1: [false] }).visited).toEqual([0, 1, 3, 4, 7]);
  });
  it('while goes round until false', () => {
    const rows = ['while', '#body', 'end', '#after'];
    expect(trace(rows, { 0: [true, true, false] }).visited).toEqual([0, 1, 2, 0, 1, 2, 0, 3]);
  });
  it('do … repeatIf runs once, then again while true', () => {
    const rows = ['do', '#body', 'repeatIf', '#after'];
    expect(trace(rows, { 2: [true, false] }).visited).toEqual([0, 1, 2, 1, 2, 3]);
  });
  it('a loop stops at its limit with Selenium IDE words', () => {
    const rows = ['while', '#body', 'end'];
    const { visited, problem } = trace(rows, { 0: Array<boolean>(10).fill(true) }, [3]);
    expect(visited).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    expect(problem).toMatch(/^Max retry limit exceeded \(3 times\)/);
  });
  it('the default limit is 1000', () => {
    const rows = ['while', 'end'];
    const { visited, problem } = trace(rows, { 0: Array<boolean>(2000).fill(true) });
    expect(LOOP_LIMIT_DEFAULT).toBe(1000);
    expect(visited.filter((v) => v === 0)).toHaveLength(LOOP_LIMIT_DEFAULT + 1);
    expect(problem).toMatch(/Max retry limit exceeded \(1000 times\)/);
  });
  it('an inner loop counts afresh each time the outer loop comes round', () => {
    const rows = ['times', 'times', '#x', 'end', 'end'];
    const walker = new FlowWalker(
      rows.map((r) => (r.startsWith('#') ? null : (r as UiFlow))),
      [],
    );
    let at = 0;
    let xs = 0;
    let steps = 0;
    while (at < rows.length && steps++ < 100) {
      if (at === 2) xs++;
      // times N: true while its visits so far are fewer than N (2 outer, 3 inner).
      const n = at === 0 ? 2 : 3;
      const value = walker.tests(at) ? walker.visitsOf(at) < n : true;
      at = walker.next(at, value);
    }
    expect(xs).toBe(6);
  });
});
