import { join } from 'node:path';
import type { TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWS_ON_BUILTIN_NOTE } from '../src/services/runs/builtin-only';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { waitForRunEnd } from './wait-for';

/*
 * A plan's flows through the server (docs/adr/0027-load-profiles.md "Flows"): saved and answered with
 * them, refused in words when a call names no listed flow, run by the built-in engine with each flow's
 * iterations in the stored summary, and never handed to a runner that would run every call instead.
 */

let server: TestServer;
let target: CountingTarget;
let toolsDir: string;
let token: string;

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startCountingTarget();
  server = await startTestServer({
    // No tool is found: the engine note names the flows, not a missing tool, whatever the machine has.
    JMETER_CMD: join(toolsDir, 'no-jmeter-here'),
    K6_CMD: join(toolsDir, 'no-k6-here'),
    LOCUST_CMD: join(toolsDir, 'no-locust-here'),
    BZT_CMD: join(toolsDir, 'no-bzt-here'),
  });
  token = (await registerAndLogin(server)).token;
});

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

const FLOWS = [
  { name: 'browse', weight: 3 },
  { name: 'search', weight: 1 },
];

function urls(): Record<string, unknown>[] {
  return [
    { url: `${target.origin}/browse-home`, thinkTime: '20ms', flow: 'browse' },
    { url: `${target.origin}/search`, thinkTime: '20ms', flow: 'search' },
    { url: `${target.origin}/browse-item`, thinkTime: '20ms', flow: 'browse' },
  ];
}

async function save(body: Record<string, unknown>) {
  return server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token,
    body: { name: 'Flows', tool: 'locust', concurrent_users: 2, flows: FLOWS, urls: urls(), ...body },
  });
}

async function startRun(body: Record<string, unknown>) {
  return server.request({ method: 'POST', url: '/api/run-test', token, body });
}

describe('a plan with flows', () => {
  it('is saved, read, listed and updated with its flows and each call’s flow', async () => {
    const saved = await save({});
    expect(saved.statusCode).toBe(201);
    const { id } = saved.json<{ id: string }>();
    const reordered = [FLOWS[1], FLOWS[0]];
    const updated = await server.request({
      method: 'PUT',
      url: `/api/update-test-plan/${id}`,
      token,
      body: { name: 'Flows', tool: 'locust', flows: reordered, urls: urls() },
    });
    expect(updated.statusCode).toBe(200);
    const read = await server.request({ method: 'GET', url: `/api/get-test-plan/${id}`, token });
    const list = await server.request({ method: 'GET', url: '/api/get-test-plans', token });
    const answers = [
      saved.json<{ plan: Record<string, unknown> }>().plan,
      updated.json<{ plan: Record<string, unknown> }>().plan,
      read.json<Record<string, unknown>>(),
      list.json<Record<string, unknown>[]>().find((p) => p.id === id),
    ];
    answers.forEach((plan, i) => {
      expect(plan!.flows).toEqual(i === 0 ? FLOWS : reordered);
      expect((plan!.urls as { flow?: string }[]).map((u) => u.flow)).toEqual(['browse', 'search', 'browse']);
    });
  });

  it('is refused in words when a call names no listed flow, or none', async () => {
    const bad = urls();
    bad[1]!.flow = 'buy';
    delete bad[2]!.flow;
    const refused = await save({ urls: bad });
    expect(refused.statusCode).toBe(400);
    const detail = refused.json<{ detail: string }>().detail;
    expect(detail).toContain('urls[1].flow "buy" is not one of the plan\'s flows: browse, search');
    expect(detail).toContain(
      'urls[2] has no flow: when a plan has flows, every call names one (browse, search)',
    );
  });

  it('runs in the built-in engine whatever its tool, its flows’ iterations stored and answered', async () => {
    const { id: planId } = (await save({})).json<{ id: string }>();
    await target.reset();
    const started = await startRun({ plan_id: planId, duration_seconds: 3 });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ engine: 'builtin', engine_note: FLOWS_ON_BUILTIN_NOTE });
    const runId = started.json<{ test_id: string }>().test_id;
    const final = await waitForRunEnd<TestResult>(server, token, 'load', runId, 20_000);
    expect(final.status).toBe('completed');
    const flows = final.summary!.flows!;
    expect(flows.map((f) => f.name)).toEqual(['browse', 'search']);
    // Each iteration's first call reached the target, but for at most one per user begun as the run ended.
    const counts = (await target.counts()).byPath;
    const home = counts['/browse-home'] ?? 0;
    const search = counts['/search'] ?? 0;
    expect(home).toBeGreaterThan(0);
    expect(search).toBeGreaterThan(0);
    expect(flows[0]!.iterations - home).toBeGreaterThanOrEqual(0);
    expect(flows[1]!.iterations - search).toBeGreaterThanOrEqual(0);
    expect(flows[0]!.iterations + flows[1]!.iterations - (home + search)).toBeLessThanOrEqual(2);
    // Whole cycles of 3 + 1: the shares are exact to within a cycle.
    expect(Math.abs(flows[0]!.iterations - 3 * flows[1]!.iterations)).toBeLessThanOrEqual(3);
    // The stored run answers the same.
    const again = await server.request({ method: 'GET', url: `/api/get-test-result/${runId}`, token });
    expect(again.json<TestResult>().summary!.flows).toEqual(flows);
  }, 30_000);
});
