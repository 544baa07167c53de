import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PerfPlan, PerfPlanInput } from '@aqa/plan';
import { startRun, type RunOptions } from './run';
import { summaryText } from './cli/report';
import { shuffledRows } from '@aqa/plan';
import { TestTarget, testPlan, type TestEntry } from './testing/target';
import type { RunResult } from './types';

// A plan's test data in the engine (docs/adr/0027-load-profiles.md "Test data"), counted at a local
// target: the row values it receives in URLs, headers and bodies.
const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => target.reset());

async function run(plan: PerfPlan, opts: RunOptions): Promise<RunResult> {
  const handle = startRun(plan, opts);
  for await (const _ of handle.snapshots) void _;
  return handle.result;
}

const url = (path: string): string => `${target.origin}${path}`;

/** A CSV of `n` rows: id 1..n and a name. */
function csv(n: number): string {
  return ['id,name', ...Array.from({ length: n }, (_, i) => `${i + 1},user ${i + 1}`)].join('\n');
}

function dataPlan(
  rows: number,
  source: Record<string, unknown>,
  over: Partial<PerfPlanInput> = {},
  urls: TestEntry[] = [{ url: url('/u/{{id}}') }],
): PerfPlan {
  return testPlan(urls, {
    data_files: { 'users.csv': csv(rows) },
    data_sources: [{ path: 'users.csv', ...source }],
    ...over,
  });
}

/** The ids the target received in paths /u/{id}, in order of arrival. */
const ids = (): number[] =>
  target.recorded.filter((r) => r.path.startsWith('/u/')).map((r) => Number(r.path.slice(3)));

describe('test data in the built-in engine', () => {
  it('share all, loop false: 2 workers hand out every row exactly once, then the users end and the run says so', async () => {
    const plan = dataPlan(200, { share: 'all', loop: false }, { concurrent_users: 6 });
    const result = await run(plan, { durationSeconds: 20, workers: 2 });
    expect(result.workers).toBe(2);
    const seen = ids().sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Every user ended for want of a row, long before the 20 s.
    expect(Date.parse(result.ended_at) - Date.parse(result.started_at)).toBeLessThan(15_000);
    expect(result.data_exhausted).toEqual([
      {
        path: 'users.csv',
        rows: 200,
        share: 'all',
        ended: 6,
        message: 'test data "users.csv" ran out after its 200 rows (loop: false): 6 users ended there',
      },
    ]);
    // aqa run's summary says it too.
    expect(summaryText(result, [])).toContain(
      'Test data "users.csv" ran out after its 200 rows (loop: false): 6 users ended there',
    );
  });

  it('puts the columns in the URL, a header and the body, the same row for every call of the iteration', async () => {
    const plan = dataPlan(20, { loop: false }, { concurrent_users: 2 }, [
      {
        url: url('/u/{{id}}'),
        method: 'POST',
        headers: [{ name: 'x-name', value: '{{name}}' }],
        payload: '{"id":"{{id}}"}',
      },
      { url: url('/again/{{id}}') },
    ]);
    await run(plan, { durationSeconds: 20, workers: 2 });
    const first = target.recorded.filter((r) => r.path.startsWith('/u/'));
    expect(first).toHaveLength(20);
    for (const r of first) {
      const id = r.path.slice(3);
      expect(r.headers['x-name']).toBe(`user ${id}`);
      expect(r.body).toBe(`{"id":"${id}"}`);
    }
    const again = target.recorded.filter((r) => r.path.startsWith('/again/')).map((r) => r.path.slice(7));
    expect(again.sort()).toEqual(first.map((r) => r.path.slice(3)).sort());
  });

  it('share user: each user reads every row from the first', async () => {
    const plan = dataPlan(5, { share: 'user', loop: false }, { concurrent_users: 4 });
    const result = await run(plan, { durationSeconds: 20, workers: 2 });
    const counts = new Map<number, number>();
    for (const id of ids()) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.entries()].sort((a, b) => a[0] - b[0])).toEqual([1, 2, 3, 4, 5].map((id) => [id, 4]));
    expect(result.data_exhausted?.[0]?.message).toBe(
      'test data "users.csv" ran out after its 5 rows for each user (loop: false): 4 users ended there',
    );
  });

  it('random_order: the rows in one seeded order, each once per pass', async () => {
    const plan = dataPlan(30, { random_order: true, loop: false }, { concurrent_users: 1 });
    await run(plan, { durationSeconds: 20, workers: 1, dataSeed: 42 });
    const order = ids();
    const expected = shuffledRows(
      Array.from({ length: 30 }, (_, i) => i + 1),
      42,
    );
    expect(order).toEqual(expected);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(order).not.toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('loop true: the rows start over at the end', async () => {
    const plan = dataPlan(3, { loop: true }, { concurrent_users: 1 });
    const result = await run(plan, { durationSeconds: 0.4, workers: 1 });
    const order = ids();
    expect(order.length).toBeGreaterThan(6);
    order.forEach((id, i) => expect(id).toBe((i % 3) + 1));
    expect(result.data_exhausted).toBeUndefined();
  });

  it('open model, loop false: iterations past the data are not started, and not counted as dropped', async () => {
    const plan = dataPlan(10, { loop: false });
    const result = await run(plan, {
      workers: 2,
      loadProfile: {
        model: 'arrival_rate',
        max_users: 4,
        stages: [
          { duration: '1s', target: 40 },
          { duration: '0.5s', target: 40 },
        ],
      },
    });
    expect(ids().sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const notStarted = result.data_exhausted?.[0]?.ended ?? 0;
    expect(notStarted).toBeGreaterThan(0);
    expect(result.iterations!.started).toBe(10);
    expect(result.iterations!.started + result.iterations!.dropped + notStarted).toBe(40);
    expect(result.data_exhausted?.[0]?.message).toMatch(
      /ran out after its 10 rows \(loop: false\): \d+ iterations were not started$/,
    );
  });

  it('a plan without data runs as before, with no data_exhausted', async () => {
    const result = await run(testPlan([{ url: url('/plain') }], { concurrent_users: 1 }), {
      durationSeconds: 0.2,
      workers: 1,
    });
    expect(result.summary.total_requests).toBeGreaterThan(0);
    expect(result.data_exhausted).toBeUndefined();
  });
});
