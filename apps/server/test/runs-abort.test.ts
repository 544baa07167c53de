import type { MessageList, PastRun, RunComparison, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/services/history/reports/escape';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { breakingTarget, expectStoppedAtTheSlowdown, RISING } from './breakpoint-run';
import { startTarget, type TargetServer } from './target-server';
import { waitFor, waitForRunEnd } from './wait-for';

/*
 * Abort criteria through the server (docs/adr/0027-load-profiles.md, "Abort criteria"): a plan's
 * abort_thresholds are saved, checked and loaded with it; the built-in engine stops the run when one
 * breaks, and the run ends `stopped` with its reason and breaking point stored, answered and told in
 * the owner's message.
 */

let server: TestServer;
/** Answers at once for its first FAST_MS, then after SLOW_MS: the target "breaks" under the rising rate. */
let target: TargetServer;
let toolsDir: string;
let token: string;

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startTarget(breakingTarget(() => true));
  server = await startTestServer({});
  token = (await registerAndLogin(server)).token;
});

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

function save(body: Record<string, unknown>) {
  return server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token,
    body: {
      name: 'Breakpoint',
      urls: [{ name: 'Items', url: `${target.origin}/items`, thinkTime: '0' }],
      ...body,
    },
  });
}

describe('abort thresholds', () => {
  it('are saved and loaded with the plan; one that does not read, or names no API, is refused in words', async () => {
    const saved = await save({ abort_thresholds: ['p95<50', 'Items: error_rate<5%'] });
    expect(saved.statusCode).toBe(201);
    const id = saved.json<{ id: string }>().id;
    const read = await server.request({ method: 'GET', url: `/api/get-test-plan/${id}`, token });
    expect(read.json()).toMatchObject({ abort_thresholds: ['p95<50', 'Items: error_rate<5%'] });

    const unreadable = await save({ abort_thresholds: ['p95 < soon'] });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json<{ detail: string }>().detail).toContain(
      'threshold "p95 < soon" is not understood',
    );
    const unknown = await save({ abort_thresholds: ['Checkout: p95<50'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'THRESHOLD_SCOPE_UNKNOWN' });
    expect(unknown.json<{ detail: string }>().detail).toContain(
      'threshold "Checkout: p95<50": the plan has no API named "Checkout"; its APIs are "Items"',
    );
  });

  it('stop a rising rate when the target slows: stopped, with the reason and the breaking point', async () => {
    const saved = await save({ abort_thresholds: ['p95<50'], load_profile: RISING });
    const planId = saved.json<{ id: string }>().id;
    const started = await server.request({
      method: 'POST',
      url: '/api/run-test',
      token,
      body: { plan_id: planId },
    });
    expect(started.statusCode).toBe(201);
    const runId = started.json<{ test_id: string }>().test_id;
    const final = await waitForRunEnd<TestResult>(server, token, 'load', runId, 40_000);

    expectStoppedAtTheSlowdown(final, 14);
    const reason = final.abort_reason!;
    const point = final.breaking_point!;

    // The owner's message says why it stopped and where it broke.
    const message = await waitFor('the run’s message', async () => {
      const list = await server.request({ method: 'GET', url: '/api/messages', token });
      return list.json<MessageList>().messages.find((m) => m.run_id === runId);
    });
    expect(message).toMatchObject({ kind: 'stopped', title: 'Breakpoint load test was stopped' });
    expect(message.body).toContain(reason.text);
    expect(message.body).toContain(`Breaking point: ${point.text}`);
    expect(message.body_phrases).toContainEqual({
      code: 'run.aborted',
      params: expect.objectContaining({ threshold: 'p95<50', what: 'p95' }) as unknown,
    });

    // get-test-result answers the same reason as the end of the run did.
    const list = await server.request({ method: 'GET', url: `/api/get-test-result/${runId}`, token });
    expect(list.json<TestResult>().abort_reason).toEqual(reason);

    // The history, the comparison and the reports carry the reason, the breaking point and the iterations.
    const past = (
      await server.request({ method: 'GET', url: `/api/get-test-results?plan_id=${planId}`, token })
    )
      .json<PastRun[]>()
      .find((run) => run.test_id === runId)!;
    expect(past).toMatchObject({ abort_reason: reason, breaking_point: point });
    const compared = await server.request({
      method: 'GET',
      url: `/api/compare-test-results?base=${runId}&candidate=${runId}`,
      token,
    });
    expect(compared.statusCode).toBe(200);
    expect(compared.json<RunComparison>().base).toMatchObject({
      abort_reason: reason,
      breaking_point: point,
    });
    const html = (
      await server.request({ method: 'GET', url: `/api/test-report/${runId}?format=html`, token })
    ).body;
    expect(html).toContain(`<th>Stopped by an abort threshold</th><td>${escapeHtml(reason.text)}</td>`);
    expect(html).toContain(`<th>Breaking point</th><td>${escapeHtml(point.text)}</td>`);
    const summary = final.summary!;
    expect(html).toContain(
      `<div class="label">Iterations started</div><div class="value">${summary.iterations_started!.toLocaleString('en-US')}</div>`,
    );
    expect(html).toContain('<div class="label">Iterations dropped</div>');
    const csv = await server.request({ method: 'GET', url: `/api/test-report/${runId}?format=csv`, token });
    expect(csv.body.split('\r\n')[0]).toMatch(/,bandwidth_kbs,iterations,dropped_iterations$/);
  }, 60_000);
});
