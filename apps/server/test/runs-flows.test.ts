import { join } from 'node:path';
import type { ChartData, LiveSnapshot, PastRun, RunComparison, TestResult } from '@aqa/plan';
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
    // No tool is found: a Taurus plan's engine note names the flows (Taurus scripts carry none), not a
    // missing tool, whatever the machine has.
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

  it('runs in the built-in engine where its tool does not carry flows, its flows’ iterations stored and answered', async () => {
    // JMeter, k6 and Locust run flows (runs-tools-profile.test.ts); Taurus scripts carry none.
    const { id: planId } = (await save({ tool: 'taurus' })).json<{ id: string }>();
    await target.reset();
    const started = await startRun({ plan_id: planId, duration_seconds: 3 });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ engine: 'builtin', engine_note: FLOWS_ON_BUILTIN_NOTE });
    const runId = started.json<{ test_id: string }>().test_id;
    // The stream, read whole once the run ends.
    const stream = server.request({ method: 'GET', url: `/api/test-stream/${runId}`, token });
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
    // Each flow's requests as the engine measured them: its calls' requests at the target, its latency
    // merged — what a threshold scoped to the flow is judged on (docs/adr/0027-load-profiles.md).
    const item = counts['/browse-item'] ?? 0;
    expect(flows[0]!.total_requests).toBe(home + item);
    expect(flows[1]!.total_requests).toBe(search);
    expect(flows[0]!.percentile_95).toBeGreaterThan(0);
    expect(flows[0]!.error_rate).toBe(0);
    // Whole cycles of 3 + 1: the shares are exact to within a cycle.
    expect(Math.abs(flows[0]!.iterations - 3 * flows[1]!.iterations)).toBeLessThanOrEqual(3);
    // The stored run answers the same.
    const again = await server.request({ method: 'GET', url: `/api/get-test-result/${runId}`, token });
    expect(again.json<TestResult>().summary!.flows).toEqual(flows);

    // Each live second carries its flows' iterations and the run's so far, which add up to the summary's.
    const snapshots = [...(await stream).body.matchAll(/^event: snapshot\ndata: (.*)$/gm)].map(
      (m) => JSON.parse(m[1]!) as LiveSnapshot,
    );
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    let soFar = [0, 0];
    for (const snapshot of snapshots) {
      expect(snapshot.flows?.map((f) => f.name)).toEqual(['browse', 'search']);
      soFar = soFar.map((n, i) => n + snapshot.flows![i]!.iterations);
      expect(
        snapshot.totals.flows?.map((f) => f.iterations),
        `second ${snapshot.second}`,
      ).toEqual(soFar);
    }
    expect(snapshots.at(-1)!.totals.flows?.map(({ name, iterations }) => ({ name, iterations }))).toEqual(
      flows.map(({ name, iterations }) => ({ name, iterations })),
    );
    // Each live second carries its flows' requests and latency: the flows' totals so far are the run's
    // (which may count a later second a worker already reported), and the seconds add up to the stored
    // summary's (the engine's exact merge, docs/adr/0006).
    let requestsSoFar = [0, 0];
    for (const snapshot of snapshots) {
      requestsSoFar = requestsSoFar.map((n, i) => n + snapshot.flows![i]!.requests!);
      const totals = snapshot.totals.flows!.map((f) => f.requests!);
      expect(totals[0]! + totals[1]!, `second ${snapshot.second}`).toBe(snapshot.totals.requests);
      totals.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(requestsSoFar[i]!));
      snapshot.flows!.forEach((f) => {
        if (f.requests! > 0) expect(f.latency!.p99).toBeGreaterThanOrEqual(f.latency!.p95);
      });
    }
    expect(requestsSoFar).toEqual(flows.map((f) => f.total_requests));
    expect(snapshots.at(-1)!.totals.flows?.map((f) => f.requests)).toEqual(requestsSoFar);
    expect(snapshots.at(-1)!.totals.flows?.map((f) => f.failures)).toEqual(
      flows.map((f) => f.failed_requests),
    );
    // The run's p95 of a flow lies within its seconds' p95s, as an exact merge must.
    const browseP95 = snapshots
      .filter((s) => s.flows![0]!.requests! > 0)
      .map((s) => s.flows![0]!.latency!.p95);
    expect(flows[0]!.percentile_95).toBeLessThanOrEqual(Math.max(...browseP95));
    expect(flows[0]!.percentile_95).toBeGreaterThanOrEqual(Math.min(...browseP95));

    // Each stored second carries its flows' iterations, and they add up to the run's
    // (docs/adr/0027-load-profiles.md "8. Live and stored results").
    const chart = (
      await server.request({ method: 'GET', url: `/api/chart-data/${runId}`, token })
    ).json<ChartData>();
    const perSecond = (name: string) =>
      chart.series.reduce((sum, p) => sum + (p.flows?.find((f) => f.name === name)?.iterations ?? 0), 0);
    expect(chart.series.every((p) => p.flows?.map((f) => f.name).join() === 'browse,search')).toBe(true);
    expect(perSecond('browse')).toBe(flows[0]!.iterations);
    expect(perSecond('search')).toBe(flows[1]!.iterations);

    // The reports carry them: a column per flow in the CSV, a Flows table and chart in the HTML.
    const csv = await server.request({ method: 'GET', url: `/api/test-report/${runId}?format=csv`, token });
    const [header, first] = csv.body.split('\r\n');
    expect(header).toMatch(
      /,bandwidth_kbs,flow:browse,flow:search,flow:browse:requests,flow:browse:errors,flow:browse:avg_ms,flow:browse:p95_ms,flow:search:requests,flow:search:errors,flow:search:avg_ms,flow:search:p95_ms$/,
    );
    const firstSecond = chart.series[0]!;
    const cells = first!.split(',');
    expect(cells.slice(-10, -8).map(Number)).toEqual(firstSecond.flows!.map((f) => f.iterations));
    // Each flow's calls in the second, as the engine measured them: the stored second's figures.
    const browse = firstSecond.flows![0]!;
    expect(Number(cells.at(-8))).toBe(browse.requests);
    expect(Number(cells.at(-7))).toBe(browse.failures);
    // Every second's flow requests add up to the flow's own total.
    const requestsOf = (name: string) =>
      chart.series.reduce((sum, p) => sum + (p.flows?.find((f) => f.name === name)?.requests ?? 0), 0);
    expect(requestsOf('browse')).toBe(flows[0]!.total_requests);
    expect(requestsOf('search')).toBe(flows[1]!.total_requests);
    const html = (
      await server.request({ method: 'GET', url: `/api/test-report/${runId}?format=html`, token })
    ).body;
    expect(html).toContain('<h2>Flows</h2>');
    expect(html).toContain('Iterations per second');
    expect(html).toContain(
      `<td>browse</td><td class="num">${flows[0]!.iterations.toLocaleString('en-US')}</td>`,
    );
    // With each flow's requests, failures and latency.
    expect(html).toContain('<th class="num">p99 (ms)</th></tr></thead>');
    expect(html).toMatch(
      new RegExp(
        `<td>search</td><td class="num">${flows[1]!.iterations.toLocaleString('en-US')}</td><td class="num">[\\d.]+ %</td><td class="num">${flows[1]!.total_requests!.toLocaleString('en-US')}</td><td class="num">0</td>`,
      ),
    );

    // The history and the comparison carry them too.
    const past = (
      await server.request({ method: 'GET', url: `/api/get-test-results?plan_id=${planId}`, token })
    )
      .json<PastRun[]>()
      .find((run) => run.test_id === runId)!;
    expect(past.results_summary!.flows).toEqual(flows);
    expect(past.abort_reason).toBeNull();
    const compared = await server.request({
      method: 'GET',
      url: `/api/compare-test-results?base=${runId}&candidate=${runId}`,
      token,
    });
    const comparison = compared.json<RunComparison>();
    expect(comparison.candidate.results_summary!.flows).toEqual(flows);
    expect(comparison.series.candidate.map((p) => p.flows)).toEqual(chart.series.map((p) => p.flows));
  }, 30_000);
});
