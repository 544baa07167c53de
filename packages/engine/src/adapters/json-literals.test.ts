import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestTarget, testPlan, type TestEntry } from '../testing/target';
import { startToolRun } from './run-tool';
import { observe, TEST_ENV, toolForTests } from './test-helpers';

/*
 * The generated scripts judge a json assertion's JSON literal as the engine does (docs/design.md §4
 * "JSON literals"), so a tool run agrees with a built-in one: "ada" is the string ada, 10.0 the number
 * 10, true and null themselves; a run of the real tool counts no failure for the literals that hold and
 * fails every request of the one that does not.
 */

const locust = await toolForTests('locust');
const jmeter = await toolForTests('jmeter');

const BODY = '{"user":{"name":"ada","id":"7"},"count":10,"price":10.5,"ok":true,"gone":null}';

describe('JSON literals in generated scripts (live tools)', () => {
  const target = new TestTarget();
  beforeAll(async () => {
    await target.start();
    target.route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    };
  });
  afterAll(() => target.close());

  const json = (
    path: string,
    assertionPath: string,
    assertionValue: string,
    assertionOperator: 'equals' | 'not_equals' = 'equals',
  ): TestEntry => ({
    url: `${target.origin}${path}`,
    assertionType: 'json',
    assertionPath,
    assertionValue,
    assertionOperator,
    thinkTime: '50ms',
  });
  const plan = (withNull: boolean) =>
    testPlan(
      [
        json('/quoted', '$.user.name', '"ada"'),
        json('/integer', '$.count', '10.0'),
        json('/decimal', '$.price', '10.50'),
        json('/boolean', '$.ok', 'true'),
        json('/not', '$.user.name', '"bob"', 'not_equals'),
        json('/wrong', '$.user.name', '"bob"'),
        ...(withNull ? [json('/null', '$.gone', 'null')] : []),
      ],
      { concurrent_users: 1, duration: 1 },
    );

  /** Every step but /wrong passes; /wrong fails every request it sent. */
  function expectAgreement(rows: { url: string; total_requests: number; failed_requests: number }[]): void {
    for (const row of rows) {
      expect(row.total_requests, row.url).toBeGreaterThan(0);
      expect(row.failed_requests, row.url).toBe(row.url.endsWith('/wrong') ? row.total_requests : 0);
    }
  }

  it.skipIf(locust.skip)(
    'Locust judges them as the engine does',
    async () => {
      target.reset();
      const run = startToolRun(plan(true), 'locust', { env: TEST_ENV, durationSeconds: 3 });
      const { result } = await observe(run);
      expect(result.status).toBe('completed');
      expectAgreement(result.api_results);
    },
    60_000,
  );

  // The JMX is written for the installed JMeter, as the server writes it: before 3.0 its JSONPaths are
  // read with regular expressions (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
  it.skipIf(jmeter.skip)(
    "JMeter judges them as the engine does (null aside: JMeter's JSON Extractor writes it as empty text)",
    async () => {
      target.reset();
      const run = startToolRun(plan(false), 'jmeter', {
        env: TEST_ENV,
        durationSeconds: 3,
        toolVersion: jmeter.info.version,
      });
      const { result } = await observe(run);
      expect(result.status).toBe('completed');
      expectAgreement(result.api_results);
    },
    60_000,
  );
});
