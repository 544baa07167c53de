import { describe, expect, it } from 'vitest';
import { RunAggregator } from './aggregate';
import { Histogram } from './histogram';
import { ERROR_KIND_COUNT, type ShardIntervalWire } from './types';
import type { RunSnapshot } from '../types';

const INFO = [{ name: 'a', label: 'GET a', url: 'http://x/a', method: 'GET' }];

function wire(
  shard: number,
  interval: number,
  final: boolean,
  latenciesUs: number[],
  errors = 0,
): ShardIntervalWire {
  const h = new Histogram();
  for (const v of latenciesUs) h.record(v);
  const errs = new Array<number>(ERROR_KIND_COUNT).fill(0);
  errs[4] = errors; // http_status
  return {
    shard,
    interval,
    final,
    endMs: final ? interval * 1000 + 300 : (interval + 1) * 1000,
    activeUsers: final ? 0 : 2,
    busy: 0.5,
    steps: [
      {
        requests: latenciesUs.length,
        successes: latenciesUs.length - errors,
        errors: errs,
        samples: Array.from({ length: ERROR_KIND_COUNT }, (_, k) =>
          k === 4 && errors ? [`HTTP 500 #${shard}`] : [],
        ),
        bytesSent: 10 * latenciesUs.length,
        bytesReceived: 100 * latenciesUs.length,
        histogram: h.encode(),
      },
    ],
  };
}

describe('RunAggregator', () => {
  it('emits each second once every shard has reported it, in order, and sums exactly', () => {
    const out: RunSnapshot[] = [];
    const agg = new RunAggregator(INFO, 2, (s) => out.push(s));
    agg.add(wire(0, 0, false, [1000, 2000]));
    expect(out).toHaveLength(0); // shard 1 has not reported second 1 yet
    agg.add(wire(1, 0, false, [3000], 1));
    expect(out.map((s) => s.second)).toEqual([1]);
    expect(out[0]!.requests).toBe(3);
    expect(out[0]!.activeUsers).toBe(4);
    expect(out[0]!.errors.http_status).toBe(1);
    // Shard 0 ends early; shard 1 goes on alone.
    agg.add(wire(0, 1, true, [4000]));
    agg.add(wire(1, 1, false, [5000]));
    agg.add(wire(1, 2, true, [6000, 7000]));
    agg.flush(true);
    expect(out.map((s) => s.second)).toEqual([1, 2, 3]);
    expect(out.reduce((n, s) => n + s.requests, 0)).toBe(7);
    expect(out[2]!.totals.requests).toBe(7);
    const { summary, api_results, errors, histogram } = agg.summary(4, agg.durationMs / 1000);
    expect(summary.total_requests).toBe(7);
    expect(summary.failed_requests).toBe(1);
    expect(summary.min_response_time).toBe(1);
    expect(summary.max_response_time).toBe(7);
    expect(summary.average_response_time).toBe(4);
    expect(summary.bytes_received).toBe(700);
    expect(summary.test_duration).toBe(2.3);
    expect(histogram.totalCount).toBe(7);
    expect(api_results[0]!.errors.http_status).toEqual({ count: 1, samples: ['HTTP 500 #1'] });
    expect(errors.http_status?.count).toBe(1);
  });
});

describe('RunAggregator.abandonShards', () => {
  it('goes on without a lost shard: later intervals emit with the others, nothing counted twice', () => {
    const out: RunSnapshot[] = [];
    const agg = new RunAggregator(INFO, 3, (s) => out.push(s));
    agg.add(wire(0, 0, false, [1000]));
    agg.add(wire(1, 0, false, [2000]));
    agg.add(wire(2, 0, false, [3000, 3000]));
    expect(out.map((s) => s.requests)).toEqual([4]);
    // Shard 2 is lost after second 1; seconds 2 and 3 wait for it until it is abandoned.
    agg.add(wire(0, 1, false, [1000]));
    agg.add(wire(1, 1, false, [2000]));
    agg.add(wire(0, 2, false, [1000]));
    agg.add(wire(1, 2, false, [2000, 2000]));
    expect(out).toHaveLength(1);
    agg.abandonShards([2]);
    expect(out.map((s) => s.second)).toEqual([1, 2, 3]);
    expect(out.map((s) => s.requests)).toEqual([4, 2, 3]);
    // Its users are no longer active.
    expect(out[2]!.activeUsers).toBe(4);
    // A late report of the lost shard changes nothing already emitted, nor the totals.
    agg.add(wire(2, 1, false, [9000]));
    agg.add(wire(0, 3, true, [1000]));
    agg.add(wire(1, 3, true, [2000]));
    agg.flush(true);
    expect(out.map((s) => s.requests)).toEqual([4, 2, 3, 2]);
    expect(out.at(-1)!.totals.requests).toBe(11);
    const { summary, histogram } = agg.summary(6, agg.durationMs / 1000);
    expect(summary.total_requests).toBe(11);
    expect(summary.max_response_time).toBe(3);
    expect(histogram.totalCount).toBe(11);
  });
});

describe('RunAggregator with open-model iterations', () => {
  /** A shard's interval with `started` iterations, each `lagUs` late, and `dropped` ones. */
  const withIterations = (
    shard: number,
    interval: number,
    final: boolean,
    started: number,
    dropped: number,
    lagUs: number,
  ): ShardIntervalWire => {
    const lag = new Histogram();
    for (let i = 0; i < started; i++) lag.record(lagUs);
    return {
      ...wire(shard, interval, final, new Array<number>(started).fill(1000)),
      iterations: started,
      dropped,
      lag: lag.encode(),
    };
  };

  it('adds up started and dropped iterations per second and over the run, and merges their lag exactly', () => {
    const out: RunSnapshot[] = [];
    const agg = new RunAggregator(INFO, 2, (s) => out.push(s));
    agg.add(withIterations(0, 0, false, 10, 0, 1000));
    agg.add(withIterations(1, 0, false, 9, 1, 3000));
    agg.add(withIterations(0, 1, true, 4, 6, 2000));
    agg.add(withIterations(1, 1, true, 5, 5, 2000));
    agg.flush(true);
    expect(out.map((s) => [s.iterations, s.droppedIterations])).toEqual([
      [19, 1],
      [9, 11],
    ]);
    expect(out.map((s) => s.scheduleLag?.max)).toEqual([3, 2]);
    expect(out[0]!.scheduleLag?.p50).toBe(1);
    expect(out.at(-1)!.totals).toMatchObject({ iterations: 28, droppedIterations: 12 });
    expect(agg.series.map((p) => p.droppedIterations)).toEqual([1, 11]);
    const summary = agg.iterationSummary()!;
    expect([summary.started, summary.dropped]).toEqual([28, 12]);
    expect([summary.schedule_lag.min, summary.schedule_lag.max]).toEqual([1, 3]);
  });

  it('adds no iteration fields for shards that do not count iterations', () => {
    const out: RunSnapshot[] = [];
    const agg = new RunAggregator(INFO, 1, (s) => out.push(s));
    agg.add(wire(0, 0, true, [1000]));
    agg.flush(true);
    expect(Object.keys(out[0]!)).not.toContain('iterations');
    expect(Object.keys(out[0]!)).not.toContain('droppedIterations');
    expect(Object.keys(out[0]!.totals)).not.toContain('iterations');
    expect(Object.keys(agg.series[0]!)).not.toContain('scheduleLag');
    expect(agg.iterationSummary()).toBeUndefined();
  });
});
