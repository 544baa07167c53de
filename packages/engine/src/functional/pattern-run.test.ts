import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionalPlanSchema, type CallResult, type FunctionalPlanInput } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { startFunctionalRun } from './functional-run';

/*
 * A functional run judges user patterns in linear time (docs/adr/0022-linear-time-patterns.md), so a
 * run with `^(a+)+$` against thirty a's and a `!` ends at once with the right verdicts; and its test
 * duration is a hard bound: a worker held by user work (an XPath that visits n⁴ nodes) is terminated
 * shortly after it, the run keeping the calls judged and saying why.
 */

const RUN = `${'a'.repeat(30)}!`;
const DEEP_XML = `<r>${'<i><j>x</j></i>'.repeat(400)}</r>`;
const STUCK_XPATH = 'count(//i[count(//j[count(//i[count(//j) > 0]) > 0]) > 0]) = 400';

const target = new TestTarget();
beforeAll(async () => {
  target.route = (req, res) => {
    if (req.path === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ v: RUN }));
    }
    if (req.path === '/deep.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(DEEP_XML);
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(RUN);
  };
  await target.start();
});
afterAll(async () => {
  await target.close();
});

/** A read script's plan: it may carry regex and xpath rules (docs/reference/02-running.md §3 "Taurus scripts"). */
const plan = (over: Partial<FunctionalPlanInput>) =>
  FunctionalPlanSchema.parse({
    test_name: 'patterns',
    source: 'script_input',
    script_content: 'scenarios: {}',
    think_time: 0,
    ...over,
  });

describe('a functional run with a pathological pattern', () => {
  it('judges ^(a+)+$ in a regex rule, a ~ comparison and a capture at once, with the right verdicts', async () => {
    const calls: CallResult[] = [];
    const outcome = await startFunctionalRun(
      plan({
        apis: [
          {
            name: 'text',
            url: `${target.origin}/text`,
            validations: [
              { type: 'regex', expected_value: '^(a+)+$' },
              { type: 'regex', expected_value: '^(a+)+$', negate: true },
              { type: 'regex', expected_value: '^(a+)+!$' },
            ],
            captures: [{ name: 'run', from: 'regex', expression: '^((a+)+)!' }],
          },
          {
            name: 'json',
            url: `${target.origin}/json?run={{run}}`,
            validations: [{ type: 'json_path', expected_value: '$.v ~ ^(a+)+$' }],
          },
        ],
      }),
      { onCall: (call) => calls.push(call) },
    ).result;
    // Two calls, judged at once (a backtracking engine takes minutes per answer here).
    expect(Date.parse(outcome.end_time) - Date.parse(outcome.start_time)).toBeLessThan(5000);
    expect(outcome.status).toBe('failed');
    const [text, json] = calls;
    expect(text?.validation_details.map((v) => [v.passed, v.message])).toEqual([
      [false, 'expected the body to match /^(a+)+$/; it does not'],
      [true, 'the body does not match /^(a+)+$/'],
      [true, 'the body matches /^(a+)+!$/'],
    ]);
    // The capture took the first group of the match: the thirty a's.
    expect(target.recorded.find((r) => r.path === '/json')?.query.get('run')).toBe('a'.repeat(30));
    expect(json?.validation_details.map((v) => [v.passed, v.message])).toEqual([
      [false, `expected $.v to match /^(a+)+$/, got ${RUN}`],
    ]);
  }, 60_000);

  it('ends at its test duration when user work holds the worker, keeping the calls judged and saying why', async () => {
    const calls: CallResult[] = [];
    const outcome = await startFunctionalRun(
      plan({
        iterations: 100,
        apis: [
          { name: 'first', url: `${target.origin}/text` },
          {
            name: 'stuck',
            url: `${target.origin}/deep.xml`,
            validations: [{ type: 'xpath', expected_value: STUCK_XPATH }],
          },
        ],
      }),
      { onCall: (call) => calls.push(call), durationMs: 1500 },
    ).result;
    // From the worker's start (loading it is not the run's time): the duration, the grace, the check.
    const ranMs = Date.parse(outcome.end_time) - Date.parse(outcome.start_time);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(
      /^The functional runner was still busy \d+(\.\d+)? s after the test duration of 1\.5 s \(a check that does not finish: an XPath or JSONPath too costly for the answer\) and was stopped; the calls judged until then are kept$/,
    );
    expect(calls.map((c) => c.api_name)).toEqual(['first']);
    expect(outcome.summary.total_requests).toBe(1);
    expect(ranMs).toBeGreaterThanOrEqual(1500 + 1000);
    expect(ranMs).toBeLessThan(1500 + 1000 + 1000 + 1500);
  }, 60_000);
});
