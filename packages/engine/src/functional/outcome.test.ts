import { expect, it } from 'vitest';
import { FunctionalPlanSchema, type CallResult } from '@aqa/plan';
import { FunctionalTally, KEPT_CALLS_MAX_BYTES, MAX_API_RESULT_TESTS, MAX_KEPT_CALLS } from './outcome';

const plan = FunctionalPlanSchema.parse({
  test_name: 'tally',
  apis: [
    {
      name: 'a',
      url: 'http://127.0.0.1:1/a',
      validations: [{ type: 'status_code', expected_value: '201', name: 'created' }],
    },
    { name: 'b', url: 'http://127.0.0.1:1/{{id}}' },
    { name: 'never', url: 'http://127.0.0.1:1/c' },
  ],
});

function call(api: string, status: number, ms: number, passed: boolean): CallResult {
  return {
    api_name: api,
    method: 'GET',
    url: 'http://127.0.0.1:1/x',
    status_code: status,
    response_time: ms,
    success: passed,
    validation_details: [
      { type: 'status_code', expected: '201', actual: String(status), passed, message: passed ? 'ok' : 'no' },
    ],
  };
}

it('keeps the first calls, counts every call, and sums up each API and each second', () => {
  const tally = new FunctionalTally(plan);
  for (let i = 0; i < MAX_KEPT_CALLS + 3; i++)
    tally.add({ apiIndex: 0, atMs: 100, call: call('a', 201, 10, true) });
  tally.add({ apiIndex: 1, atMs: 2500, call: call('b', 500, 30, false) });
  tally.add({ apiIndex: 1, atMs: 2600, call: call('b', 200, 10, true) });
  const outcome = tally.outcome('failed', new Date(0), new Date(3000), null);

  expect(outcome.validation_results).toHaveLength(MAX_KEPT_CALLS);
  expect(outcome.calls_omitted).toBe(5);
  expect(outcome.summary).toEqual({
    total_requests: MAX_KEPT_CALLS + 5,
    successful_requests: MAX_KEPT_CALLS + 4,
    failed_requests: 1,
    validation_failures: 1,
  });
  expect(outcome.api_results).toEqual([
    {
      name: 'a',
      status: 'success',
      method: 'GET',
      url: 'http://127.0.0.1:1/a',
      response_time: 10,
      status_code: 201,
      validation_results: [{ name: 'created', passed: true }],
    },
    {
      name: 'b',
      status: 'failed',
      method: 'GET',
      url: 'http://127.0.0.1:1/{{id}}',
      response_time: 20,
      status_code: 200,
      validation_results: [{ name: 'status_code 200', passed: false }],
    },
    {
      name: 'never',
      status: 'not_run',
      method: 'GET',
      url: 'http://127.0.0.1:1/c',
      response_time: 0,
      status_code: null,
      validation_results: [{ name: 'status_code 200', passed: false }],
    },
  ]);
  expect(outcome.timeline_data).toEqual([
    { time: 0, response_time: 10, requests: MAX_KEPT_CALLS + 3, failures: 0 },
    { time: 1, response_time: 0, requests: 0, failures: 0 },
    { time: 2, response_time: 20, requests: 2, failures: 1 },
  ]);
  expect(outcome.start_time).toBe('1970-01-01T00:00:00.000Z');
});

it(`keeps the first calls within ${KEPT_CALLS_MAX_BYTES / 2 ** 20} MB of JSON, and counts the rest (docs/adr/0024-memory-bounds.md)`, () => {
  const tally = new FunctionalTally(plan);
  // Each failed call carries a 1 MB message (a rule with a long expected value, say).
  const heavy = (): CallResult => {
    const c = call('a', 500, 10, false);
    c.validation_details[0]!.message = 'm'.repeat(2 ** 20);
    return c;
  };
  for (let i = 0; i < 40; i++) tally.add({ apiIndex: 0, atMs: 100, call: heavy() });
  // A small call after the list is full is not kept either: the list stays the run's first calls.
  tally.add({ apiIndex: 0, atMs: 100, call: call('a', 201, 10, true) });
  const outcome = tally.outcome('failed', new Date(0), new Date(1000), null);
  expect(outcome.validation_results).toHaveLength(31);
  expect(outcome.calls_omitted).toBe(10);
  expect(outcome.summary.total_requests).toBe(41);
  expect(Buffer.byteLength(JSON.stringify(outcome.validation_results))).toBeLessThanOrEqual(
    KEPT_CALLS_MAX_BYTES,
  );
});

it("names each Postman test an API's scripts ran in its API Results row, failed if it failed once (docs/adr/0029-postman-collections.md)", () => {
  const scripted = FunctionalPlanSchema.parse({
    test_name: 'orders',
    apis: [
      {
        name: 'Create order',
        url: 'http://127.0.0.1:1/orders',
        validations: [{ type: 'status_code', expected_value: '2xx', name: 'Created' }],
        scripts: { prerequest: [], test: [{ origin: 'request', source: 'pm.test("…")' }] },
      },
    ],
  });
  const test = (name: string, passed: boolean) =>
    ({
      type: 'script',
      name,
      expected: 'pass',
      actual: passed ? 'pass' : 'fail',
      passed,
      message: '',
    }) as const;
  const rows = (details: CallResult['validation_details']): CallResult => ({
    ...call(
      'Create order',
      201,
      5,
      details.every((d) => d.passed),
    ),
    validation_details: details,
  });
  const tally = new FunctionalTally(scripted);
  const rule = call('Create order', 201, 5, true).validation_details[0]!;
  tally.add({
    apiIndex: 0,
    atMs: 0,
    call: rows([rule, test('Status is 201 for notebook', true), test('Has an id', true)]),
  });
  tally.add({
    apiIndex: 0,
    atMs: 0,
    call: rows([rule, test('Status is 201 for pen', false), test('Has an id', true)]),
  });
  // A test named from each of many data rows: the row names the first ones only.
  for (let i = 0; i < MAX_API_RESULT_TESTS + 5; i++)
    tally.add({ apiIndex: 0, atMs: 0, call: rows([rule, test(`Row ${i}`, true)]) });
  const [row] = tally.outcome('failed', new Date(0), new Date(1), null).api_results;
  expect(row!.status).toBe('failed');
  expect(row!.validation_results.slice(0, 4)).toEqual([
    { name: 'Created', passed: true },
    { name: 'Status is 201 for notebook', passed: true },
    { name: 'Has an id', passed: true },
    { name: 'Status is 201 for pen', passed: false },
  ]);
  expect(row!.validation_results).toHaveLength(1 + MAX_API_RESULT_TESTS);
});
