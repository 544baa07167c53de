import type { ServerResponse } from 'node:http';
import { startFunctionalRun } from '@aqa/engine';
import { isHttpValidation, judge, type ResponseView } from '@aqa/engine/call';
import {
  FunctionalPlanSchema,
  FunctionalValidationSchema,
  type CallResult,
  type ValidationResponse,
} from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { type ReceivedRequest, sendJson, startTarget, type TargetServer } from './target-server';

/*
 * The call core's golden cases (docs/call-core.md): the same rule and the same answer give the same
 * verdict through every caller — the core's judge itself, the functional runner, and the editor's
 * Validate — status classes such as 2xx, and lists such as 200, 201, included.
 */

const USER = { id: 42, name: 'Ada' };
const BODY = JSON.stringify(USER);

/** The answers the rules are judged against, by path. */
const ANSWERS: Record<string, { status: number; headers: Record<string, string> }> = {
  '/ok': { status: 200, headers: { 'x-request-id': 'abc' } },
  '/created': { status: 201, headers: { 'x-request-id': 'abc' } },
  '/missing': { status: 404, headers: { 'x-request-id': 'abc' } },
};

type Golden = [path: string, type: string, expected: string, passed: boolean];

const GOLDEN: Golden[] = [
  ['/ok', 'status_code', '200', true],
  ['/ok', 'status_code', '201', false],
  ['/ok', 'status_code', '2xx', true],
  ['/created', 'status_code', '2xx', true],
  ['/missing', 'status_code', '2xx', false],
  ['/missing', 'status_code', '4xx', true],
  ['/ok', 'status_code', '4xx', false],
  ['/ok', 'status_code', '5XX', false],
  ['/created', 'status_code', '2XX', true],
  ['/created', 'status_code', '200, 201', true],
  ['/missing', 'status_code', '200, 201', false],
  ['/missing', 'status_code', '2xx, 404', true],
  ['/ok', 'json_path', '$.id', true],
  ['/ok', 'json_path', '$.missing', false],
  ['/ok', 'json_path', '$.name == Ada', true],
  ['/ok', 'json_path', '$.id == 41', false],
  ['/ok', 'json_path', '$.id != 41', true],
  ['/ok', 'contains_text', 'Ada', true],
  ['/ok', 'contains_text', 'Grace', false],
  ['/ok', 'header_value', 'X-Request-Id: abc', true],
  ['/ok', 'header_value', 'X-Request-Id: xyz', false],
  ['/ok', 'response_size', '10000', true],
  ['/ok', 'response_size', '5', false],
];

const PATHS = Object.keys(ANSWERS);
const rowsOf = (path: string) => GOLDEN.filter((row) => row[0] === path);

let server: TestServer;
let target: TargetServer;

beforeAll(async () => {
  target = await startTarget((request: ReceivedRequest, response: ServerResponse) => {
    const answer = ANSWERS[request.path];
    if (answer === undefined) return sendJson(response, 500, { error: 'no such path' });
    sendJson(response, answer.status, USER, answer.headers);
  });
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
});

afterAll(async () => {
  await target.close();
  await server.close();
  removeDir(server.dataDir);
});

/** What each caller says of each golden row, in the table's order; null where it said nothing. */
type Verdicts = (boolean | null)[];

function byCore(): Verdicts {
  return GOLDEN.map(([path, type, expected_value]) => {
    const rule = FunctionalValidationSchema.parse({ type, expected_value });
    if (!isHttpValidation(rule)) throw new Error(`${type} is not judged on a response`);
    const answer = ANSWERS[path]!;
    const view: ResponseView = {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
      body: BODY,
      sizeBytes: Buffer.byteLength(BODY),
      timeMs: 1,
    };
    return judge(rule, view).passed;
  });
}

async function byFunctionalRunner(): Promise<Verdicts> {
  const plan = FunctionalPlanSchema.parse({
    test_name: 'golden',
    think_time: 0,
    apis: PATHS.map((path) => ({
      name: path,
      url: `${target.origin}${path}`,
      method: 'GET',
      validations: rowsOf(path).map(([, type, expected_value]) => ({ type, expected_value })),
    })),
  });
  const calls: CallResult[] = [];
  await startFunctionalRun(plan, { onCall: (call) => calls.push(call) }).result;
  const verdicts = new Map<string, boolean[]>(
    calls.map((call) => [call.api_name, call.validation_details.map((d) => d.passed)]),
  );
  return GOLDEN.map(([path], i) => verdicts.get(path)?.[rowIndex(i)] ?? null);
}

async function byValidate(): Promise<Verdicts> {
  const { token } = await registerAndLogin(server);
  const response = await server.request({
    method: 'POST',
    url: '/api/validate-script',
    token,
    body: {
      urls: PATHS.map((path) => ({
        url: `${target.origin}${path}`,
        method: 'GET',
        validations: rowsOf(path).map(([, type, expected_value], i) => ({
          id: i + 1,
          name: `${type} ${expected_value}`,
          type,
          expected_value,
        })),
      })),
      tool: 'jmeter',
      concurrent_users: 1,
      duration: 1,
      validation_mode: true,
    },
  });
  expect(response.statusCode).toBe(200);
  const results = response.json<ValidationResponse>().api_results;
  return GOLDEN.map(([path], i) => {
    const check = results[PATHS.indexOf(path)]?.validations?.[rowIndex(i)];
    return check === undefined ? null : check.status === 'success';
  });
}

/** A golden row's place among the rules of its path. */
function rowIndex(i: number): number {
  const path = GOLDEN[i]![0];
  return GOLDEN.slice(0, i).filter((row) => row[0] === path).length;
}

describe('the call core: one rule, one answer, one verdict through every caller', () => {
  it('judges the golden rules as the table says, in the core, the functional runner and Validate', async () => {
    const expected = GOLDEN.map((row) => row[3]);
    const table = (verdicts: Verdicts) => GOLDEN.map((row, i) => [...row.slice(0, 3), verdicts[i]]);
    expect(table(byCore())).toEqual(table(expected));
    expect(table(await byFunctionalRunner())).toEqual(table(expected));
    expect(table(await byValidate())).toEqual(table(expected));
  });
});
