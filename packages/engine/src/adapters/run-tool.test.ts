import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PlanCompileError } from '../executor/compile';
import type { RunHandle } from '../run';
import { testPlan } from '../testing/target';
import { startToolRun } from './run-tool';
import { observe } from './test-helpers';
import { ToolRunError } from './types';

const plan = testPlan(
  [
    { url: 'http://127.0.0.1:9/a', name: 'Alpha' },
    { url: 'http://127.0.0.1:9/b', method: 'POST', payload: '{"x":1}' },
  ],
  { concurrent_users: 2 },
);
const fake = (name: string): string =>
  `${process.execPath} ${fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))}`;
const fakeK6 = fake('fake-k6.mjs');

describe('startToolRun', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aqa-run-tool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects with a clear error when the tool is not installed', async () => {
    const run = startToolRun(plan, 'k6', { env: { ...process.env, K6_CMD: '/nonexistent/k6' } });
    // The same handle shape as the built-in engine's, for the server's runner registry.
    const asEngineHandle: RunHandle = run;
    expect(asEngineHandle.shards).toEqual([2]);
    const error = (await run.result.catch((e: unknown) => e)) as ToolRunError;
    expect(error).toBeInstanceOf(ToolRunError);
    expect(error.kind).toBe('not_installed');
    expect(error.message).toMatch(
      /Grafana k6 is not installed: \/nonexistent\/k6 was not found \(set K6_CMD/,
    );
    // The snapshots end too.
    const seen = [];
    for await (const s of run.snapshots) seen.push(s);
    expect(seen).toEqual([]);
  });

  it('rejects naming the tool, its exit code and the last lines of its log when it exits non-zero', async () => {
    const broken = join(dir, 'broken-locust');
    writeFileSync(
      broken,
      '#!/bin/sh\necho "[2024] locust.main: loading the locustfile"\necho "ImportError: no module named x" >&2\nexit 3\n',
    );
    chmodSync(broken, 0o755);
    const run = startToolRun(plan, 'locust', { command: broken, durationSeconds: 2 });
    const error = (await run.result.catch((e: unknown) => e)) as ToolRunError;
    expect(error).toBeInstanceOf(ToolRunError);
    expect(error.kind).toBe('exited');
    expect(error.exitCode).toBe(3);
    // One sentence for people; the tool's own output in the details.
    expect(error.message).toBe(
      'Locust stopped with an error before sending any request: it could not load the locustfile.',
    );
    expect(error.details).toMatch(/^\$ .*broken-locust/);
    expect(error.details).toMatch(/locust\.main: loading the locustfile\nImportError: no module named x/);
  });

  it('names the exit code when the output shows no cause it knows', async () => {
    const broken = join(dir, 'crashing-k6');
    writeFileSync(broken, '#!/bin/sh\necho "panic: runtime error" >&2\nexit 107\n');
    chmodSync(broken, 0o755);
    const error = (await startToolRun(plan, 'k6', { command: broken, durationSeconds: 2 }).result.catch(
      (e: unknown) => e,
    )) as ToolRunError;
    expect(error.message).toBe('k6 stopped with an error (exit code 107) before sending any request.');
    expect(error.details).toMatch(/panic: runtime error/);
  });

  it('keeps the last 200 lines of what the tool printed as the details', async () => {
    const noisy = join(dir, 'noisy-locust');
    writeFileSync(
      noisy,
      '#!/bin/sh\ni=1\nwhile [ $i -le 500 ]; do echo "line $i"; i=$((i+1)); done\nexit 2\n',
    );
    chmodSync(noisy, 0o755);
    const error = (await startToolRun(plan, 'locust', { command: noisy, durationSeconds: 2 }).result.catch(
      (e: unknown) => e,
    )) as ToolRunError;
    const lines = error.details.split('\n');
    expect(lines[0]).toMatch(/^\$ /);
    expect(lines.slice(1, 201)).toEqual(Array.from({ length: 200 }, (_, i) => `line ${i + 301}`));
  });

  it('rejects when a tool exits 0 having recorded nothing (e.g. a plan it could not load)', async () => {
    const silent = join(dir, 'silent-jmeter');
    writeFileSync(
      silent,
      '#!/bin/sh\necho "Error in NonGUIDriver java.lang.IllegalArgumentException: Problem loading XML"\nexit 0\n',
    );
    chmodSync(silent, 0o755);
    const run = startToolRun(plan, 'jmeter', { command: silent, durationSeconds: 2 });
    const error = (await run.result.catch((e: unknown) => e)) as ToolRunError;
    expect(error.kind).toBe('no_results');
    expect(error.message).toBe(
      'JMeter stopped with an error before sending any request: it could not load the test plan.',
    );
    expect(error.details).toMatch(/Error in NonGUIDriver java\.lang\.IllegalArgumentException/);
  });

  it('throws PlanCompileError at once for a plan the model refuses', () => {
    expect(() => startToolRun({ name: 'x', urls: [] }, 'jmeter')).toThrow(PlanCompileError);
  });

  it("follows k6's JSON output while it is written (a stand-in k6) and stops it with SIGINT", async () => {
    const work = join(dir, 'k6-live');
    const run = startToolRun(plan, 'k6', { command: fakeK6, durationSeconds: 3, workDir: work });
    const o = await observe(run);
    const written = Number(readFileSync(join(work, 'k6.json.count'), 'utf8'));
    expect(o.result.summary.total_requests).toBe(written);
    expect(o.result.api_results[1]!.failed_requests).toBe(o.result.api_results[1]!.errors.http_status?.count);
    expect(o.result.summary.failed_requests).toBeGreaterThan(0);
    expect(o.snapshots.length).toBeGreaterThanOrEqual(2);
    // The first second arrives while the tool still runs.
    expect(o.arrivals[0]!).toBeLessThan(o.resolvedAt - 700);
    expect(o.snapshots.reduce((a, s) => a + s.requests, 0)).toBe(written);
    expect(o.snapshots[0]!.activeUsers).toBe(2);
    expect(o.result.summary.bytes_received).toBeGreaterThan(0);

    const work2 = join(dir, 'k6-stop');
    const long = startToolRun(plan, 'k6', { command: fakeK6, durationSeconds: 60, workDir: work2 });
    let stopping: Promise<void> | undefined;
    const stoppedRun = await observe(long, () => {
      stopping ??= long.stop();
    });
    await stopping;
    expect(stoppedRun.result.status).toBe('stopped');
    expect(stoppedRun.result.summary.total_requests).toBe(
      Number(readFileSync(join(work2, 'k6.json.count'), 'utf8')),
    );
    expect(stoppedRun.result.summary.test_duration).toBeLessThan(10);
  }, 30_000);

  it("follows Taurus's kpi.jtl in its artifacts directory while it is written (a stand-in bzt)", async () => {
    const work = join(dir, 'bzt-live');
    const run = startToolRun(plan, 'taurus', {
      command: fake('fake-bzt.mjs'),
      durationSeconds: 3,
      workDir: work,
    });
    const o = await observe(run);
    const written = Number(readFileSync(join(work, 'artifacts', 'kpi.jtl.count'), 'utf8'));
    expect(o.result.tool).toBe('taurus');
    expect(o.result.summary.total_requests).toBe(written);
    expect(o.result.api_results.map((r) => r.total_requests)).toEqual([written / 2, written / 2]);
    expect(o.result.api_results[1]!.errors.http_status?.count).toBe(o.result.api_results[1]!.failed_requests);
    expect(o.snapshots.length).toBeGreaterThanOrEqual(2);
    expect(o.arrivals[0]!).toBeLessThan(o.resolvedAt - 700);
    expect(o.snapshots.reduce((a, s) => a + s.requests, 0)).toBe(written);
  }, 30_000);
});
