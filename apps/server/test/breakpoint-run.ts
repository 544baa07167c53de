import type { LoadProfileInput, TestResult } from '@aqa/plan';
import { expect } from 'vitest';
import { sendJson, type TargetHandler } from './target-server';

/*
 * A Breakpoint run whose target breaks (docs/adr/0027-load-profiles.md "Abort criteria"): the arrival
 * rate rises while the target answers at once, then slowly; `p95<50` must stop the run soon after, with
 * its reason and the highest rate that held. Shared by the run on this server (runs-abort.test.ts) and
 * on load agents (agents-load-features.test.ts), which must end alike.
 */

/** The target answers at once for this long from its first request, then after SLOW_MS. */
export const FAST_MS = 11_000;
export const SLOW_MS = 150;

/** Breakpoint's shape: the arrival rate rising from 0 to 40 a second over 30 s. */
export const RISING: LoadProfileInput = {
  model: 'arrival_rate',
  max_users: 40,
  graceful_stop: '1s',
  stages: [{ duration: '30s', target: 40 }],
};

/** A target handler that "breaks" FAST_MS after the first request of a path `slows`; other paths answer at once. */
export function breakingTarget(slows: (path: string) => boolean): TargetHandler {
  let firstAt: number | undefined;
  return (request, response) => {
    const now = Date.now();
    if (!slows(request.path)) return sendJson(response, 200, { ok: true });
    firstAt ??= now;
    if (now - firstAt < FAST_MS) sendJson(response, 200, { ok: true });
    else setTimeout(() => sendJson(response, 200, { ok: true }), SLOW_MS);
  };
}

/**
 * The run stopped on `p95<50` between the slowdown and `latestS` seconds, said so in words, and named a
 * breaking point no higher than the rising line allowed; its length is well under the profile's 30 s.
 */
export function expectStoppedAtTheSlowdown(result: TestResult, latestS: number, limitMs = 50): void {
  expect(result.status).toBe('stopped');
  const reason = result.abort_reason!;
  expect(reason).toMatchObject({ threshold: `p95<${limitMs}`, metric: 'p95' });
  // Slow from about 11 s; the window breaks once over 5 % of it is slow, within a few seconds.
  expect(reason.at_ms).toBeGreaterThanOrEqual(FAST_MS);
  expect(reason.at_ms).toBeLessThanOrEqual(latestS * 1000);
  expect(reason.actual).toBeGreaterThanOrEqual(SLOW_MS);
  expect(result.error).toBe(reason.text);
  // The measured p95 is the target's slow answer plus what queueing on a busy machine adds: at least
  // SLOW_MS (above), with no upper band (a loaded CI machine measured 204 ms).
  expect(reason.text).toMatch(new RegExp(`^p95 \\d+(\\.\\d+)? ms broke p95<${limitMs} at \\d+s$`));
  // The highest rate of a second before the window broke: no more than the line (4/3 a second) allowed.
  const point = result.breaking_point!;
  expect(point.model).toBe('arrival_rate');
  expect(point.at_ms).toBeLessThan(reason.at_ms);
  expect(point.value).toBeGreaterThan(10);
  expect(point.value).toBeLessThanOrEqual((point.at_ms / 1000) * (40 / 30) + 2);
  expect(result.summary!.test_duration).toBeLessThan(latestS + 3);
}
