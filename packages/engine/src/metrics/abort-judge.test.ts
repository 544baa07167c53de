import { describe, expect, it } from 'vitest';
import { parseThreshold } from '@aqa/plan';
import { ABORT_GRACE_MS, ABORT_WINDOW_S, AbortJudge } from './abort-judge';
import { Histogram } from './histogram';
import type { RunSnapshot } from '../types';

const APIS = [
  { name: 'Login', label: 'POST http://x/login' },
  { name: 'GET http://x/search', label: 'GET http://x/search' },
];

/** A second of a run: `latenciesMs` per API (index in APIS), `iterations` started in it. */
function second(
  n: number,
  latenciesMs: number[][],
  { iterations = 0, failures = 0, users = 1 } = {},
): RunSnapshot {
  const whole = new Histogram();
  const steps = latenciesMs.map((values, step) => {
    const h = new Histogram();
    for (const ms of values) {
      h.record(ms * 1000);
      whole.record(ms * 1000);
    }
    return { step, requests: values.length, failures: 0, histogram: h.encode() };
  });
  const requests = latenciesMs.reduce((sum, v) => sum + v.length, 0);
  return {
    second: n,
    elapsedS: n,
    intervalS: 1,
    requests,
    failures,
    histogram: whole.encode(),
    steps,
    activeUsers: users,
    iterations,
  } as unknown as RunSnapshot;
}

const fast = (count: number): number[] => new Array<number>(count).fill(10);

describe('abort thresholds judged over the last seconds', () => {
  it('judges nothing in the grace, then every second over the last 10 s', () => {
    const judge = new AbortJudge([parseThreshold('p95<50')], APIS);
    // Slow answers from the start: nothing is judged before 10 s.
    for (let n = 1; n < ABORT_GRACE_MS / 1000; n++) expect(judge.add(second(n, [[500]]))).toBeUndefined();
    const verdict = judge.add(second(10, [[500]]));
    expect(verdict?.aborted).toEqual({
      threshold: 'p95<50',
      metric: 'p95',
      actual: 500,
      at_ms: 10_000,
      text: 'p95 500 ms broke p95<50 at 10s',
    });
    // No profile: no breaking point; and nothing held before the first judgement.
    expect(verdict?.breakingPoint).toBeUndefined();
  });

  it('merges the seconds of the window exactly rather than averaging their percentiles', () => {
    const judge = new AbortJudge([parseThreshold('p95<100')], APIS);
    // Nine quiet seconds of 100 fast answers, then one second of 60 slow ones: 60 of 960 (6.25 %)
    // are slow, so the window's p95 is slow, though nine of ten seconds' p95 were 10 ms (an average
    // of the seconds' p95 would be 59 ms and hold).
    for (let n = 1; n <= 9; n++) expect(judge.add(second(n, [fast(100)]))).toBeUndefined();
    const verdict = judge.add(second(10, [new Array<number>(60).fill(500)]));
    expect(verdict?.aborted.actual).toBe(500);
  });

  it('forgets seconds older than the window', () => {
    const judge = new AbortJudge([parseThreshold('error_rate<10%')], APIS);
    expect(judge.add(second(1, [fast(10)], { failures: 10 }))).toBeUndefined();
    for (let n = 2; n <= ABORT_WINDOW_S + 1; n++) {
      const verdict = judge.add(second(n, [fast(10)]));
      // The window of seconds 1–10 holds the failing second: 10 of 100 is 10 %, not under 10 %.
      if (n === 10) expect(verdict?.aborted.actual).toBe(10);
      else expect(verdict).toBeUndefined();
    }
  });

  it('judges a scoped threshold on its API alone', () => {
    const judge = new AbortJudge(
      [parseThreshold('Login: p95<50'), parseThreshold('GET http://x/search: p95<50')],
      APIS,
      { graceMs: 1000 },
    );
    const verdict = judge.add(second(1, [fast(20), [400]]));
    expect(verdict?.aborted).toMatchObject({
      threshold: 'GET http://x/search: p95<50',
      scope: 'GET http://x/search',
      actual: 400,
      text: 'GET http://x/search p95 400 ms broke GET http://x/search: p95<50 at 1s',
    });
  });

  it('names the highest rate of the seconds before the window that broke', () => {
    const judge = new AbortJudge([parseThreshold('p95<50')], APIS, { graceMs: 3000, model: 'arrival_rate' });
    // The rate climbs 5, 10, 15, 20 a second; the fifth second (25/s) brings slow answers.
    for (let n = 1; n <= 4; n++)
      expect(judge.add(second(n, [fast(5 * n)], { iterations: 5 * n }))).toBeUndefined();
    const verdict = judge.add(second(5, [new Array<number>(25).fill(300)], { iterations: 25 }));
    expect(verdict?.aborted.at_ms).toBe(5000);
    expect(verdict?.breakingPoint).toEqual({
      model: 'arrival_rate',
      value: 20,
      at_ms: 4000,
      text: 'the highest rate that held: 20 iterations/s at 4s',
    });
  });

  it('names the most users that held in the users model', () => {
    const judge = new AbortJudge([parseThreshold('p95<50')], APIS, { graceMs: 2000, model: 'users' });
    judge.add(second(1, [fast(5)], { users: 2 }));
    judge.add(second(2, [fast(5)], { users: 4 }));
    const verdict = judge.add(second(3, [new Array<number>(50).fill(90)], { users: 6 }));
    expect(verdict?.breakingPoint).toMatchObject({ model: 'users', value: 4, at_ms: 2000 });
    expect(verdict?.breakingPoint?.text).toBe('the highest load that held: 4 users at 2s');
  });

  it('judges nothing without abort thresholds', () => {
    const judge = new AbortJudge([], APIS, { graceMs: 0 });
    for (let n = 1; n <= 12; n++) expect(judge.add(second(n, [[5000]]))).toBeUndefined();
  });
});
