import { PerfPlanSchema, type PerfPlanInput } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import type { RunSnapshot } from '../types';
import { SampleAggregator, type ToolSample } from './samples';
import { stepInfos } from './steps';
import { toolFlows } from './tool-flows';

/** Flows counted in a tool's run (docs/adr/0027-load-profiles.md "Runs in the tools"). */

const plan = (urls: PerfPlanInput['urls']) =>
  PerfPlanSchema.parse({
    name: 'Flows',
    concurrent_users: 2,
    duration: 1,
    flows: [
      { name: 'browse', weight: 3 },
      { name: 'search', weight: 1 },
    ],
    urls,
  });

const BROWSE_SEARCH = plan([
  { url: 'http://127.0.0.1:1/home', flow: 'browse' },
  { url: 'http://127.0.0.1:1/find', flow: 'search' },
  { url: 'http://127.0.0.1:1/item', flow: 'browse' },
]);

function sample(step: number, atMs: number, elapsedMs: number, ok = true): ToolSample {
  return { step, label: `${step + 1}.`, startMs: atMs, elapsedMs, ok, bytesSent: 0, bytesReceived: 10 };
}

describe('toolFlows', () => {
  it("counts each flow's iterations by its first call, in the plan's order of flows", () => {
    expect(toolFlows(BROWSE_SEARCH)).toEqual({
      flows: [
        { name: 'browse', weight: 3, steps: [0, 2] },
        { name: 'search', weight: 1, steps: [1] },
      ],
      firstSteps: [0, 1],
    });
  });

  it('counts none without flows, or where a first call is skipped in some iterations', () => {
    expect(
      toolFlows(PerfPlanSchema.parse({ name: 'P', urls: [{ url: 'http://127.0.0.1:1/a' }] })),
    ).toBeUndefined();
    const sometimes = plan([
      { url: 'http://127.0.0.1:1/home', flow: 'browse' },
      { url: 'http://127.0.0.1:1/find', flow: 'search', transactionRate: 50 },
    ]);
    expect(toolFlows(sometimes)).toBeUndefined();
  });
});

describe('SampleAggregator with flows', () => {
  it("gives each second and the result each flow's first-call requests, and its calls' figures", () => {
    const snapshots: RunSnapshot[] = [];
    const agg = new SampleAggregator(stepInfos(BROWSE_SEARCH), (s) => snapshots.push(s), {
      users: 2,
      flows: toolFlows(BROWSE_SEARCH),
      initialActiveUsers: 0,
    });
    agg.setOrigin(1_000_000);
    // Second 1: two browse iterations (home, item) and one search; second 2: one browse, its item failed.
    for (const s of [
      sample(0, 1_000_010, 5),
      sample(2, 1_000_020, 7),
      sample(0, 1_000_100, 3),
      sample(2, 1_000_110, 9),
      sample(1, 1_000_200, 11),
      sample(0, 1_001_100, 4),
      sample(2, 1_001_200, 6, false),
    ])
      agg.add(s);
    agg.finish();
    // Each second: the flow's iterations, its calls' requests and failures that second and so far, and
    // their latency (docs/adr/0027-load-profiles.md "Flows").
    expect(
      snapshots.map((s) =>
        s.flows?.map(({ name, iterations, requests, failures, totalRequests, totalFailures, latency }) => ({
          name,
          iterations,
          requests,
          failures,
          totalRequests,
          totalFailures,
          max: latency?.max,
        })),
      ),
    ).toEqual([
      [
        {
          name: 'browse',
          iterations: 2,
          requests: 4,
          failures: 0,
          totalRequests: 4,
          totalFailures: 0,
          max: 9,
        },
        {
          name: 'search',
          iterations: 1,
          requests: 1,
          failures: 0,
          totalRequests: 1,
          totalFailures: 0,
          max: 11,
        },
      ],
      [
        {
          name: 'browse',
          iterations: 1,
          requests: 2,
          failures: 1,
          totalRequests: 6,
          totalFailures: 1,
          max: 6,
        },
        {
          name: 'search',
          iterations: 0,
          requests: 0,
          failures: 0,
          totalRequests: 1,
          totalFailures: 0,
          max: 0,
        },
      ],
    ]);
    const flows = agg.result().flows!;
    expect(flows.map(({ latency: _l, ...row }) => row)).toEqual([
      {
        name: 'browse',
        weight: 3,
        iterations: 3,
        share: 75,
        total_requests: 6,
        successful_requests: 5,
        failed_requests: 1,
        error_rate: 16.67,
      },
      {
        name: 'search',
        weight: 1,
        iterations: 1,
        share: 25,
        total_requests: 1,
        successful_requests: 1,
        failed_requests: 0,
        error_rate: 0,
      },
    ]);
    expect(flows[0]!.latency.max).toBeCloseTo(9, 1);
    expect(flows[1]!.latency.min).toBeCloseTo(11, 1);
  });
});
