import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionalPlanSchema, type CallResult } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { startFunctionalRun } from './functional-run';

/*
 * A read Taurus script's rules and captures (docs/reference/02-running.md §3 "Taurus scripts") judged
 * by the real runner against a local target: a negated contains_text, a regex on the header lines as
 * the target spelled them, and a capture's default carried into the next call.
 */

const target = new TestTarget();

/** The Taurus YAML the APIs below stand for (the runner runs the APIs; the reader is tested in converters). */
const SCRIPT = `scenarios:
  order:
    requests:
      - url: /order
        assert:
          - contains: [error]
            not: true
          - contains: ['X-RateLimit-Remaining: \\d+']
            subject: headers
          - contains: [saved]
            not: true
        extract-jsonpath:
          token: {jsonpath: $.token, default: NOT_FOUND}
        extract-regexp:
          ref: {regexp: 'id=(\\d+)', template: $1$, match-no: 2}
      - url: /echo?token=\${token}&ref=\${ref}
`;

beforeAll(async () => {
  target.route = (req, res) => {
    if (req.path === '/order') {
      // Node keeps a header name as written here: the rule searches "X-RateLimit-Remaining", not lowercased.
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Remaining': '99' });
      return void res.end(JSON.stringify({ status: 'saved', refs: 'id=4 id=5 id=6' }));
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  };
  await target.start();
});
afterAll(async () => {
  await target.close();
});

describe("a run judging a read Taurus script's rules", () => {
  it('negates, searches the headers, and chains a capture default and a chosen regex match', async () => {
    // The plan as the script screen sends it once the reader has turned the YAML into APIs.
    const plan = FunctionalPlanSchema.parse({
      test_name: 'script rules',
      source: 'script_input',
      script_content: SCRIPT,
      think_time: 0,
      apis: [
        {
          name: 'order',
          url: `${target.origin}/order`,
          validations: [
            { type: 'contains_text', expected_value: 'error', negate: true },
            { type: 'regex', expected_value: 'X-RateLimit-Remaining: \\d+', subject: 'headers' },
            { type: 'contains_text', expected_value: 'saved', negate: true },
          ],
          captures: [
            { name: 'token', from: 'json_path', expression: '$.token', default: 'NOT_FOUND' },
            { name: 'ref', from: 'regex', expression: 'id=(\\d+)', match_no: 2 },
          ],
        },
        { name: 'echo', url: `${target.origin}/echo?token={{token}}&ref={{ref}}` },
      ],
    });
    const calls: CallResult[] = [];
    await startFunctionalRun(plan, { onCall: (call) => calls.push(call) }).result;

    expect(calls.map((c) => c.api_name)).toEqual(['order', 'echo']);
    const [order, echo] = calls as [CallResult, CallResult];
    expect(order.validation_details.map((d) => [d.type, d.passed, d.message])).toEqual([
      ['contains_text', true, 'the body does not contain "error"'],
      ['regex', true, 'the headers match /X-RateLimit-Remaining: \\d+/'],
      ['contains_text', false, 'expected the body not to contain "saved", but it does'],
    ]);
    expect(order.validation_details[1]!.actual).toContain('X-RateLimit-Remaining: 99');
    // The failed negated rule fails the call; the defaulted capture does not add an error.
    expect(order.success).toBe(false);
    expect(order.error).toBeNull();
    expect(order.captures).toEqual([
      { name: 'token', value: 'NOT_FOUND' },
      { name: 'ref', value: '5' },
    ]);
    expect(echo.success).toBe(true);
    // What the target received proves the values were carried into the next call.
    const received = target.recorded.find((r) => r.path === '/echo');
    expect(received?.query.get('token')).toBe('NOT_FOUND');
    expect(received?.query.get('ref')).toBe('5');
    expect(target.count).toBe(2);
  });
});
