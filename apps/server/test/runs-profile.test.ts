import { join } from 'node:path';
import {
  ArrivalSchedule,
  LoadProfileSchema,
  profilePoints,
  targetAt,
  type ChartData,
  type LiveSnapshot,
  type LoadProfileInput,
  type TestResult,
} from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARRIVAL_RATE_ON_BUILTIN_NOTE } from '../src/services/runs/builtin-only';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { startTarget, sendJson, type TargetServer } from './target-server';
import { waitFor, waitForRunEnd } from './wait-for';

/*
 * A plan's load profile through the server (docs/adr/0027-load-profiles.md): stored with its totals,
 * run by the built-in engine along its line, its open-model iterations stored and answered, and never
 * handed to a runner that would ignore it.
 */

let server: TestServer;
let target: CountingTarget;
/** Answers every request after SLOW_MS: an open-model pool of two users cannot keep up with 10/s. */
let slow: TargetServer;
let toolsDir: string;
let token: string;

const SLOW_MS = 400;

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startCountingTarget();
  slow = await startTarget((_request, response) => {
    setTimeout(() => sendJson(response, 200, { ok: true }), SLOW_MS);
  });
  server = await startTestServer({
    // No tool is found: the engine note is the same whatever the machine has.
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
  await slow.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

/** 0 → 4 users over 3 s, held 3 s: a run of 6 s. */
const RAMP: LoadProfileInput = {
  model: 'users',
  graceful_stop: '1s',
  stages: [
    { duration: '3s', target: 4 },
    { duration: '3s', target: 4 },
  ],
};

async function savePlan(
  body: Record<string, unknown>,
): Promise<{ id: string; plan: Record<string, unknown> }> {
  const response = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token,
    body: {
      name: 'Profiled',
      tool: 'k6',
      urls: [{ url: `${target.origin}/items`, thinkTime: '50ms' }],
      ...body,
    },
  });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string; plan: Record<string, unknown> }>();
}

async function startRun(body: Record<string, unknown>) {
  return server.request({ method: 'POST', url: '/api/run-test', token, body });
}

async function runCount(): Promise<number> {
  const response = await server.request({ method: 'GET', url: '/api/get-test-results', token });
  expect(response.statusCode).toBe(200);
  return Number(response.headers['x-total-count']);
}

async function chartData(id: string): Promise<ChartData> {
  const response = await server.request({ method: 'GET', url: `/api/chart-data/${id}`, token });
  expect(response.statusCode).toBe(200);
  return response.json<ChartData>();
}

describe('a plan with a load profile', () => {
  it('is stored and answered with the profile’s users and minutes, on save and on update', async () => {
    const open: LoadProfileInput = {
      model: 'arrival_rate',
      max_users: 7,
      stages: [{ duration: '90s', target: 5 }],
    };
    const saved = await savePlan({ concurrent_users: 50, duration: 10, load_profile: RAMP });
    expect(saved.plan).toMatchObject({
      concurrent_users: 4,
      duration: 1,
      load_profile: { model: 'users', start: 0, graceful_stop: '1s', stages: RAMP.stages },
    });
    const updated = await server.request({
      method: 'PUT',
      url: `/api/update-test-plan/${saved.id}`,
      token,
      body: {
        name: 'Profiled',
        tool: 'k6',
        concurrent_users: 1,
        duration: 30,
        load_profile: open,
        urls: [{ url: `${target.origin}/items` }],
      },
    });
    expect(updated.statusCode).toBe(200);
    const read = await server.request({ method: 'GET', url: `/api/get-test-plan/${saved.id}`, token });
    const list = await server.request({ method: 'GET', url: '/api/get-test-plans', token });
    for (const plan of [
      updated.json<{ plan: Record<string, unknown> }>().plan,
      read.json<Record<string, unknown>>(),
      list.json<Record<string, unknown>[]>().find((p) => p.id === saved.id),
    ]) {
      // The pool (max_users) and 90 s rounded up to 2 minutes.
      expect(plan).toMatchObject({
        concurrent_users: 7,
        duration: 2,
        load_profile: { model: 'arrival_rate', max_users: 7 },
      });
    }
  });

  it('runs along its line in the built-in engine where its tool is missing, and ends after its stages', async () => {
    const { id: planId } = await savePlan({ load_profile: RAMP });
    const asked = Date.now();
    const started = await startRun({ plan_id: planId });
    expect(started.statusCode).toBe(201);
    // A closed profile runs in its tool where that is installed (runs-tools-profile.test.ts).
    expect(started.json()).toMatchObject({
      engine: 'builtin',
      engine_note: 'ran with the built-in engine: Grafana k6 is not installed on this server',
    });
    const runId = started.json<{ test_id: string }>().test_id;

    // While it runs, its stored seconds already follow the line.
    const live = await waitFor('three stored seconds while the run goes', async () => {
      const chart = await chartData(runId);
      return chart.series.length >= 3 ? chart : undefined;
    });
    const final = await waitForRunEnd<TestResult>(server, token, 'load', runId, 30_000);
    const tookMs = Date.now() - asked;
    expect(final).toMatchObject({
      status: 'completed',
      engine: 'builtin',
      duration_seconds: 6,
      concurrent_users: 4,
    });
    // 6 s of stages, 1 s of graceful stop at most, and the run's start and storing: not the plan's minute
    // (60 s). Bounded loosely, so a busy machine's slower start does not fail it; the stored test duration
    // below is the exact check.
    expect(tookMs).toBeLessThan(30_000);
    expect(final.summary!.test_duration).toBeGreaterThanOrEqual(6);
    expect(final.summary!.test_duration).toBeLessThan(7.5);
    expect(final.summary).not.toHaveProperty('iterations_started');
    // The profile it followed, every default filled, for the planned line of the result screens.
    expect(final.load_profile).toEqual(LoadProfileSchema.parse(RAMP));

    const points = profilePoints(LoadProfileSchema.parse(RAMP));
    const stored = (await chartData(runId)).series;
    expect(stored.length).toBeGreaterThanOrEqual(6);
    expect(live.series).toEqual(stored.slice(0, live.series.length));
    // Seconds 1–5: the sixth ends where the stages do, as the users leave (the graceful stop).
    for (const point of stored.filter((p) => p.second < 6)) {
      // Active users at the end of each second, within one of the planned line.
      expect(
        Math.abs(point.active_users - targetAt(points, point.second * 1000)),
        `second ${point.second}`,
      ).toBeLessThanOrEqual(1);
    }
    expect(stored.map((p) => p.active_users).slice(0, 6)).not.toEqual([4, 4, 4, 4, 4, 4]);
    expect(stored[0]).not.toHaveProperty('iterations');
  }, 45_000);

  it('stores and answers the open model’s iterations: started and dropped add up to the planned total', async () => {
    const profile: LoadProfileInput = {
      model: 'arrival_rate',
      start: 10,
      max_users: 2,
      graceful_stop: '1s',
      stages: [{ duration: '3s', target: 10 }],
    };
    const planned = new ArrivalSchedule(profilePoints(LoadProfileSchema.parse(profile))).totalIterations;
    expect(planned).toBe(30);
    const { id: planId } = await savePlan({ load_profile: profile, urls: [{ url: `${slow.origin}/slow` }] });
    const started = await startRun({ plan_id: planId });
    expect(started.statusCode).toBe(201);
    // The open model runs in the built-in engine whatever its tool (docs/adr/0027-load-profiles.md "Runs in the tools").
    expect(started.json()).toMatchObject({ engine: 'builtin', engine_note: ARRIVAL_RATE_ON_BUILTIN_NOTE });
    const runId = started.json<{ test_id: string }>().test_id;
    // The stream, read whole once the run ends: each second's snapshot carries its iterations.
    const stream = server.request({ method: 'GET', url: `/api/test-stream/${runId}`, token });
    // While it goes, the live summary counts them too.
    const live = await waitFor('a live summary with iterations', async () => {
      const answer = await server.request({ method: 'GET', url: `/api/get-test-result/${runId}`, token });
      const going = answer.json<TestResult>();
      return going.status === 'running' && going.summary !== null ? going.summary : undefined;
    });
    expect(live.iterations_started).toBeGreaterThan(0);
    expect(live.iterations_dropped).toBeGreaterThan(0);
    const final = await waitForRunEnd<TestResult>(server, token, 'load', runId, 20_000);
    expect(final).toMatchObject({ status: 'completed', concurrent_users: 2 });
    const { iterations_started: run, iterations_dropped: dropped } = final.summary!;
    expect(dropped).toBeGreaterThan(0);
    expect(run! + dropped!).toBe(planned);
    // Each started iteration is one request to the target.
    expect(run).toBe(slow.count('/slow'));
    expect(final.summary!.total_requests).toBe(run);

    const series = (await chartData(runId)).series;
    expect(series.reduce((sum, p) => sum + (p.iterations ?? 0), 0)).toBe(run);
    expect(series.reduce((sum, p) => sum + (p.dropped_iterations ?? 0), 0)).toBe(dropped);

    const snapshots = [...(await stream).body.matchAll(/^event: snapshot\ndata: (.*)$/gm)].map(
      (m) => JSON.parse(m[1]!) as LiveSnapshot,
    );
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    for (const snapshot of snapshots) {
      expect(snapshot.iterations, `second ${snapshot.second}`).toBeTypeOf('number');
      expect(snapshot.dropped_iterations, `second ${snapshot.second}`).toBeTypeOf('number');
    }
    const last = snapshots[snapshots.length - 1]!;
    expect(last.totals.iterations).toBe(snapshots.reduce((sum, s) => sum + s.iterations!, 0));
    expect(last.totals.dropped_iterations).toBe(snapshots.reduce((sum, s) => sum + s.dropped_iterations!, 0));
    expect(last.totals.iterations).toBeLessThanOrEqual(run!);

    // The schedule lag (start − due) is stored with the run: its percentiles in order, and merged
    // exactly from the same histograms as the seconds' (docs/adr/0006-hdr-histograms-merge-exactly.md):
    // the run's p99 lies within the seconds' p99s, as a merge of exact histograms must.
    const lag = final.summary!.schedule_lag!;
    expect(lag.min).toBeGreaterThanOrEqual(0);
    expect(lag.p50).toBeGreaterThanOrEqual(lag.min);
    expect(lag.p95).toBeGreaterThanOrEqual(lag.p50);
    expect(lag.p99).toBeGreaterThanOrEqual(lag.p95);
    expect(lag.max).toBeGreaterThanOrEqual(lag.p99);
    const secondsP99 = snapshots
      .filter((s) => (s.iterations ?? 0) > 0)
      .map((s) => {
        expect(s.schedule_lag!.p99, `second ${s.second}`).toBeGreaterThanOrEqual(s.schedule_lag!.p95);
        return s.schedule_lag!.p99;
      });
    expect(lag.p99).toBeLessThanOrEqual(Math.max(...secondsP99));
    expect(lag.p99).toBeGreaterThanOrEqual(Math.min(...secondsP99));
    const stored = await server.request({ method: 'GET', url: `/api/get-test-result/${runId}`, token });
    expect(stored.json<TestResult>().summary!.schedule_lag).toEqual(lag);
    const html = (
      await server.request({ method: 'GET', url: `/api/test-report/${runId}?format=html`, token })
    ).body;
    expect(html).toContain('Schedule lag p99');
    const report = await server.request({
      method: 'GET',
      url: `/api/test-report/${runId}?format=json`,
      token,
    });
    expect(report.json<{ result: TestResult }>().result.summary!.schedule_lag).toEqual(lag);
    expect(final.load_profile).toMatchObject({ model: 'arrival_rate', max_users: 2, start: 10 });
  }, 30_000);

  it('asks for the profile’s own length and users: other seconds, minutes or users are refused in words', async () => {
    const { id: planId } = await savePlan({ load_profile: RAMP });
    const before = await runCount();
    const refused = await startRun({ plan_id: planId, duration_seconds: 30, concurrent_users: 9 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'PROFILE_SETS_LOAD' });
    expect(refused.json<{ detail: string }>().detail).toContain(
      'This plan has a load profile: the run lasts its stages (6 s); leave duration_seconds out',
    );
    expect(refused.json<{ detail: string }>().detail).toContain(
      "This plan has a load profile: its users are 4 (the profile's peak)",
    );
    expect(await runCount()).toBe(before);
  });

  it('asks for Redis on agents like any plan, not for another refusal of its own', async () => {
    // This server has no Redis; a profile is run on agents where there are some (agents.test.ts).
    const { id: planId } = await savePlan({ load_profile: RAMP });
    const before = await runCount();
    const refused = await startRun({ plan_id: planId, agents: 1 });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'AGENTS_UNAVAILABLE' });
    expect(await runCount()).toBe(before);
  });
});
