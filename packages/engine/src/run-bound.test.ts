import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARD_END_SLACK_MS, startRun } from './run';
import { TestTarget, testPlan } from './testing/target';

/*
 * A load run's duration is a hard bound (docs/adr/0022-linear-time-patterns.md): a user pattern is
 * judged in linear time, so `^(a+)+$` against thirty a's and a `!` cannot hold a worker; and a worker
 * held by other user work (an XPath that visits n⁴ nodes) is terminated shortly after the planned end,
 * the run ending with what was measured and saying why.
 */

const ANSWER = `${'a'.repeat(30)}!`;
const DEEP_XML = `<r>${'<i><j>x</j></i>'.repeat(400)}</r>`;
const STUCK_XPATH = 'count(//i[count(//j[count(//i[count(//j) > 0]) > 0]) > 0])';
const END_GRACE_MS = 500;

const target = new TestTarget();
beforeAll(async () => {
  target.route = (req, res) => {
    if (req.path === '/deep.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(DEEP_XML);
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(ANSWER);
  };
  await target.start();
});
afterAll(async () => {
  await target.close();
});

describe('a load run with a pathological check', () => {
  it('judges ^(a+)+$ at full speed and ends at its duration', async () => {
    const plan = testPlan(
      [
        {
          url: `${target.origin}/aaa`,
          assertionType: 'text',
          assertionOperator: 'regex',
          assertionValue: '^(a+)+$',
          extractType: 'regex',
          extractName: 'v',
          extractValue: '^(a+)+$',
        },
      ],
      { concurrent_users: 2 },
    );
    const handle = startRun(plan, { durationSeconds: 2, workers: 2, endGraceMs: END_GRACE_MS });
    for await (const _ of handle.snapshots);
    const result = await handle.result;
    // From the load's start (loading the workers is not the run's time).
    const ranMs = Date.parse(result.ended_at) - Date.parse(result.started_at);
    expect(result.status).toBe('completed');
    expect(result.cut_short).toBeUndefined();
    // Every answer was judged, and failed: thirty a's and a ! do not match.
    expect(result.summary.total_requests).toBeGreaterThan(50);
    expect(result.summary.failed_requests).toBe(result.summary.total_requests);
    expect(Object.keys(result.errors)).toEqual(['assertion']);
    // Nothing runs past the duration but the end grace (and the few ms of ending).
    expect(ranMs).toBeLessThan(2000 + END_GRACE_MS + 1000);
  }, 60_000);

  it('terminates a worker still busy in user work shortly after the planned end, and says why', async () => {
    const plan = testPlan(
      [
        {
          url: `${target.origin}/deep.xml`,
          assertionType: 'xml',
          assertionPath: STUCK_XPATH,
          assertionOperator: 'equals',
          assertionValue: '400',
        },
      ],
      { concurrent_users: 1 },
    );
    const handle = startRun(plan, { durationSeconds: 1, workers: 1, endGraceMs: END_GRACE_MS });
    for await (const _ of handle.snapshots);
    const result = await handle.result;
    const ranMs = Date.parse(result.ended_at) - Date.parse(result.started_at);
    expect(target.recorded.filter((r) => r.path === '/deep.xml').length).toBeGreaterThanOrEqual(1);
    expect(result.cut_short).toMatch(
      /^1 of 1 engine worker was still busy \d+(\.\d+)? s after the planned end \(a check that does not finish: an XPath or JSONPath too costly for the answer\) and was stopped; the figures are what was measured until then$/,
    );
    expect(result.status).toBe('completed');
    // The planned end (1 s), the end grace and the hard-stop slack, then the worker is gone.
    expect(ranMs).toBeGreaterThanOrEqual(1000 + END_GRACE_MS + HARD_END_SLACK_MS - 50);
    expect(ranMs).toBeLessThan(1000 + END_GRACE_MS + HARD_END_SLACK_MS + 1500);
  }, 60_000);
});
