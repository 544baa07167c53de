import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from './run';
import { testPlan, TestTarget } from './testing/target';

/* startRun's common start (startAtEpochMs), which load agents share (docs/adr/0021-load-agents.md). */

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

describe('startRun startAtEpochMs', () => {
  it('waits for a start still ahead, and starts at once, saying how late, when it has passed', async () => {
    let firstAt = 0;
    target.route = (_req, res) => {
      firstAt ||= Date.now();
      res.end('ok');
    };
    const plan = testPlan([{ url: `${target.origin}/start` }], { concurrent_users: 1 });
    const ahead = Date.now() + 1200;
    const early = await startRun(plan, { durationSeconds: 0.3, workers: 1, startAtEpochMs: ahead }).result;
    expect(early.summary.total_requests).toBeGreaterThan(0);
    expect(firstAt).toBeGreaterThanOrEqual(ahead - 25);

    const warnings: string[] = [];
    const logger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_: object, m?: string) => void warnings.push(m ?? ''),
    };
    const late = await startRun(plan, {
      durationSeconds: 0.3,
      workers: 1,
      startAtEpochMs: Date.now() - 5000,
      logger,
    }).result;
    expect(late.summary.total_requests).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^the workers were ready \d+ ms after the common start; starting now$/);
    expect(Number(/ready (\d+) ms/.exec(warnings[0]!)![1])).toBeGreaterThanOrEqual(5000);
  });
});
