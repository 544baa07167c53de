import type { LoadProfileInput, MessageList, PastRun, RunComparison, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/services/history/reports/escape';
import { ABORT_NOT_ON_AGENTS } from '../src/services/runs/builtin-only';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { startTarget, sendJson, type TargetServer } from './target-server';
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
let firstAt: number | undefined;
let toolsDir: string;
let token: string;

const FAST_MS = 11_000;
const SLOW_MS = 150;

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startTarget((_request, response) => {
    const now = Date.now();
    firstAt ??= now;
    if (now - firstAt < FAST_MS) sendJson(response, 200, { ok: true });
    else setTimeout(() => sendJson(response, 200, { ok: true }), SLOW_MS);
  });
  server = await startTestServer({});
  token = (await registerAndLogin(server)).token;
});

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

/** Breakpoint's shape: the arrival rate rising from 0 to 40 a second over 30 s. */
const RISING: LoadProfileInput = {
  model: 'arrival_rate',
  max_users: 40,
  graceful_stop: '1s',
  stages: [{ duration: '30s', target: 40 }],
};

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

    expect(final.status).toBe('stopped');
    const reason = final.abort_reason!;
    expect(reason).toMatchObject({ threshold: 'p95<50', metric: 'p95' });
    // Slow from about 11 s; the window breaks once over 5 % of it is slow, within about two seconds.
    expect(reason.at_ms).toBeGreaterThanOrEqual(11_000);
    expect(reason.at_ms).toBeLessThanOrEqual(14_000);
    expect(reason.actual).toBeGreaterThanOrEqual(SLOW_MS);
    expect(final.error).toBe(reason.text);
    expect(reason.text).toMatch(/^p95 1\d\d ms broke p95<50 at 1[1-4]s$/);
    // The highest rate of a second before the window broke: no more than the line (4/3 a second) allowed.
    const point = final.breaking_point!;
    expect(point.model).toBe('arrival_rate');
    expect(point.at_ms).toBeLessThan(reason.at_ms);
    expect(point.value).toBeGreaterThan(10);
    expect(point.value).toBeLessThanOrEqual((point.at_ms / 1000) * (40 / 30) + 2);
    expect(final.summary!.test_duration).toBeLessThan(17);

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

  it('are refused on load agents before anything runs, saying why', async () => {
    const saved = await save({ abort_thresholds: ['p95<50'] });
    const planId = saved.json<{ id: string }>().id;
    const refused = await server.request({
      method: 'POST',
      url: '/api/run-test',
      token,
      body: { plan_id: planId, agents: 1 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ABORT_NOT_ON_AGENTS', detail: ABORT_NOT_ON_AGENTS });
  });
});
