import { type FunctionalRunOutcome, MAX_KEPT_CALLS, startFunctionalRun } from '@aqa/engine';
import { FunctionalPlanSchema } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from '../../../test/counting-target';
import { CHECKPOINT_EVERY_MS, FunctionalCheckpoint, type StoredCall } from './functional-checkpoint';
import { callsTally, FUNCTIONAL_INTERRUPTED, interruptedEnding, storedPlan } from './functional-recovery';

/*
 * A functional run's checkpoint and its rebuild (docs/adr/0016-crash-recovery.md): the calls written as
 * the run goes, read back by the runner's own tally, give exactly the result the live run tallied —
 * past the MAX_KEPT_CALLS calls a result keeps too — and the writes stay few however fast the calls come.
 */

let target: CountingTarget;

beforeAll(async () => {
  target = await startCountingTarget();
});

afterAll(async () => {
  await target.close();
});

/** A checkpoint over an in-memory store: every row written, and when. */
function memoryCheckpoint() {
  const rows: { seq: number; calls: string; atMs: number }[] = [];
  const started = performance.now();
  const checkpoint = new FunctionalCheckpoint(
    'fc_test',
    {
      insertCalls: (_runId, seq, calls) => {
        rows.push({ seq, calls, atMs: performance.now() - started });
        return Promise.resolve();
      },
    },
    () => performance.now() - started,
    (err) => {
      throw err;
    },
  );
  const stored = () => rows.flatMap((row) => JSON.parse(row.calls) as StoredCall[]);
  return { checkpoint, rows, stored };
}

describe('a functional run rebuilt from its checkpoint', () => {
  it('equals what the live run tallied, past the calls a result keeps, in a few writes a second', async () => {
    const plan = FunctionalPlanSchema.parse({
      test_name: 'Many calls',
      concurrent_users: 3,
      iterations: 900,
      think_time: 0,
      apis: [
        {
          name: 'Ok',
          url: `${target.origin}/checkpoint/ok`,
          validations: [{ type: 'status_code', expected_value: '200' }],
        },
        {
          name: 'Broken',
          url: `${target.origin}/fail/checkpoint`,
          validations: [{ type: 'status_code', expected_value: '200' }],
        },
      ],
    });
    const { checkpoint, rows, stored } = memoryCheckpoint();
    const began = performance.now();
    const run = startFunctionalRun(plan, { onCall: (call, place) => checkpoint.add(call, place) });
    const outcome: FunctionalRunOutcome = await run.result;
    const ranMs = performance.now() - began;
    await checkpoint.close();

    const calls = 3 * 900 * 2;
    expect(outcome.summary.total_requests).toBe(calls);
    expect((await target.counts()).total).toBe(calls);
    expect(calls).toBeGreaterThan(MAX_KEPT_CALLS);
    const { outcome: rebuilt } = interruptedEnding(
      '2030-01-01T00:00:00.000Z',
      stored(),
      callsTally(storedPlan(JSON.stringify(plan))),
    );
    expect(rebuilt.summary).toEqual(outcome.summary);
    expect(rebuilt.validation_results).toEqual(outcome.validation_results);
    expect(rebuilt.calls_omitted).toBe(calls - MAX_KEPT_CALLS);
    expect(rebuilt.api_results).toEqual(outcome.api_results);
    expect(rebuilt.timeline_data).toEqual(outcome.timeline_data);

    // Each write after the first waited its turn: a few a second, not one per call.
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.length).toBeLessThanOrEqual(Math.ceil(ranMs / CHECKPOINT_EVERY_MS) + 2);
    // (The last is the closing write, which waits for nothing.)
    for (let i = 1; i < rows.length - 1; i++) {
      expect(rows[i]!.atMs - rows[i - 1]!.atMs).toBeGreaterThanOrEqual(CHECKPOINT_EVERY_MS - 5);
    }
    // The calls the result does not keep are stored as counted, without their timings and evidence.
    const all = stored();
    expect(all[0]!.call.timings).toBeDefined();
    expect(all.find((s) => !s.call.success)!.call.evidence?.response?.status).toBe(500);
    expect(all.at(-1)!.call.timings).toBeUndefined();
  }, 60_000);

  it('writes a call judged after a quiet spell at once, and ends at its last call', async () => {
    const { checkpoint, rows, stored } = memoryCheckpoint();
    const call = {
      api_name: 'Ok',
      method: 'GET',
      url: `${target.origin}/ok`,
      status_code: 200,
      response_time: 3,
      success: true,
      validation_details: [],
    };
    // The write queue runs a write on the next turn of the event loop at the latest.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    checkpoint.add(call, { index: 0, atMs: 10 });
    await turn();
    expect(rows).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_EVERY_MS + 20));
    checkpoint.add(call, { index: 0, atMs: 300 });
    await turn();
    expect(rows).toHaveLength(2);
    checkpoint.add({ ...call, success: false, status_code: 500 }, { index: 0, atMs: 301 });
    await turn();
    expect(rows).toHaveLength(2);
    await checkpoint.close();
    expect(rows).toHaveLength(3);
    checkpoint.add(call, { index: 0, atMs: 400 });
    expect(stored()).toHaveLength(3);

    const plan = {
      test_name: 'Three calls',
      apis: [{ name: 'Ok', url: `${target.origin}/ok` }],
    };
    const rebuilt = interruptedEnding(
      '2030-01-01T00:00:00.000Z',
      stored(),
      callsTally(storedPlan(JSON.stringify(plan))),
    );
    expect(rebuilt.outcome.summary).toEqual({
      total_requests: 3,
      successful_requests: 2,
      failed_requests: 1,
      validation_failures: 0,
    });
    const lastMs = Math.max(...stored().map((s) => s.ms));
    expect(lastMs).toBeGreaterThan(CHECKPOINT_EVERY_MS);
    expect(Date.parse(rebuilt.endTime)).toBe(Date.parse('2030-01-01T00:00:00.000Z') + Math.floor(lastMs));
    // A plan stored by a version that no longer reads is still counted.
    expect(storedPlan('{}')).toBeNull();
    const counted = interruptedEnding('2030-01-01T00:00:00.000Z', stored(), callsTally(null)).outcome;
    expect(counted.summary.total_requests).toBe(3);
    expect(counted.api_results).toEqual([]);
    expect(FUNCTIONAL_INTERRUPTED).toBe('The server stopped during the run, so it did not finish');
  });
});
