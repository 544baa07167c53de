import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestTarget } from '../testing/target';
import { parseThreshold, evaluateThresholds } from '@aqa/plan';
import type { RunResult, RunSummary } from '../types';
import { abortLines } from './report';

const BIN = fileURLToPath(new URL('../../bin/aqa.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'aqa-cli-'));
const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

function aqa(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('aqa run', () => {
  it('exits 0 when every threshold holds and writes the summary and JUnit files', async () => {
    target.reset();
    const summaryFile = join(dir, 'summary.json');
    const junitFile = join(dir, 'junit.xml');
    const jsonFile = join(dir, 'full.json');
    const r = await aqa(
      'run',
      '--url',
      `${target.origin}/ok`,
      '--users',
      '3',
      '--duration',
      '1s',
      '--workers',
      '2',
      '--threshold',
      'p95<10s',
      '--threshold',
      'error_rate<1%',
      '--summary-json',
      summaryFile,
      '--junit',
      junitFile,
      '--json',
      jsonFile,
    );
    expect(r.stderr).not.toContain('aqa:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('PASS  p95<10s');
    const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
    expect(s.total_requests).toBe(target.count);
    for (const k of ['requests_per_second', 'percentile_50', 'percentile_99', 'percentile_999'] as const)
      expect(typeof s[k]).toBe('number');
    const full = JSON.parse(readFileSync(jsonFile, 'utf8')) as { summary: RunSummary; series: unknown[] };
    expect(full.summary.total_requests).toBe(s.total_requests);
    expect(full.series.length).toBeGreaterThanOrEqual(1);
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('<testcase classname="aqa.thresholds" name="p95&lt;10s"');
    expect(xml).toContain('failures="0"');
  });

  it('exits 1 when a threshold from the plan fails, and says so in JUnit', async () => {
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'cli plan',
        concurrent_users: 2,
        duration: 1,
        thresholds: ['p99<0'],
        urls: [{ url: `${target.origin}/plan`, thinkTime: '100ms' }],
      }),
    );
    const junitFile = join(dir, 'fail.xml');
    const r = await aqa('run', planFile, '--duration', '1s', '--junit', junitFile);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  p99<0');
    const xml = readFileSync(junitFile, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toMatch(/<failure message="p99&lt;0 failed/);
  });

  it('exits 2 with every problem of a bad plan', async () => {
    const planFile = join(dir, 'bad.json');
    writeFileSync(planFile, JSON.stringify({ name: '', concurrent_users: 0, urls: [{ url: 'ftp://x' }] }));
    const r = await aqa('run', planFile);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a valid plan');
    expect(r.stderr).toContain('Please enter a plan name');
    expect(r.stderr).toContain('concurrent_users');
    expect(r.stderr).toContain('urls[0].url');
  });

  it('exits 2 when the target cannot be reached before the first request', async () => {
    const r = await aqa('run', '--url', 'http://127.0.0.1:1/x', '--duration', '1s');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot reach the target');
  });

  it('exits 2 on a bad threshold and documents itself in --help', async () => {
    expect((await aqa('run', '--url', `${target.origin}/`, '--threshold', 'p95 lt 3')).code).toBe(2);
    const help = await aqa('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--summary-json FILE');
  });
});

describe('aqa run with a load profile (docs/adr/0027-load-profiles.md)', () => {
  interface Full {
    series: { activeUsers: number; iterations?: number; droppedIterations?: number }[];
    iterations?: { started: number; dropped: number };
  }

  it('follows --stage: users rise along the line, hold and leave, and the run lasts the stages', async () => {
    target.reset();
    const jsonFile = join(dir, 'staged.json');
    const started = Date.now();
    const r = await aqa(
      'run',
      '--url',
      `${target.origin}/ok`,
      '--stage',
      '2s:4',
      '--stage',
      '2s:4',
      '--stage',
      '1s:0',
      '--workers',
      '2',
      '--json',
      jsonFile,
    );
    expect(r.stderr).not.toContain('aqa:');
    expect(r.code).toBe(0);
    const elapsedS = (Date.now() - started) / 1000;
    // The 5 s of stages, not the quick form's 10 s.
    expect(elapsedS).toBeLessThan(9);
    const full = JSON.parse(readFileSync(jsonFile, 'utf8')) as Full;
    const users = full.series.map((point) => point.activeUsers);
    // At the end of the 1st second the line is at 2 users, of the 2nd-4th at 4, of the 5th at 0 (± 1).
    expect(Math.abs(users[0]! - 2)).toBeLessThanOrEqual(1);
    for (const second of [1, 2, 3]) expect(Math.abs(users[second]! - 4)).toBeLessThanOrEqual(1);
    expect(Math.max(...users)).toBe(4);
    expect(r.stdout).toContain('Run completed: 4 users');
  });

  it('follows --rate with a pool too small for a slow target: drops what it cannot start, and says so', async () => {
    target.reset();
    const answer = target.route;
    target.route = (req, res) => {
      if (req.path === '/slow') setTimeout(() => res.end('slow'), 300);
      else void answer(req, res);
    };
    const jsonFile = join(dir, 'rate.json');
    try {
      const r = await aqa(
        'run',
        '--url',
        `${target.origin}/slow`,
        '--rate',
        '20',
        '--duration',
        '3s',
        '--max-users',
        '2',
        '--json',
        jsonFile,
      );
      expect(r.stderr).not.toContain('aqa:');
      expect(r.code).toBe(0);
      const full = JSON.parse(readFileSync(jsonFile, 'utf8')) as Full;
      const { started, dropped } = full.iterations!;
      // 20 a second for 3 s is 60 iterations; 2 users of 300 ms start at most about 20 of them.
      expect(started + dropped).toBe(60);
      expect(dropped).toBeGreaterThan(30);
      expect(target.count).toBe(started);
      expect(r.stdout).toContain(`Iterations: ${started} started, ${dropped} dropped of 60 planned`);
    } finally {
      target.route = answer;
    }
  });

  it('stops at an --abort-threshold that breaks, says why, and exits 1', async () => {
    target.reset();
    const answer = target.route;
    target.route = (req, res) => {
      if (req.path === '/slow') setTimeout(() => res.end('slow'), 80);
      else void answer(req, res);
    };
    const summaryFile = join(dir, 'abort-summary.json');
    try {
      // Slow from the start: the first judgement, at the end of the 10 s grace, breaks it.
      const r = await aqa(
        'run',
        '--url',
        `${target.origin}/slow`,
        '--users',
        '2',
        '--duration',
        '30s',
        '--abort-threshold',
        'p95<50',
        '--summary-json',
        summaryFile,
      );
      expect(r.stderr).not.toContain('aqa:');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('Run stopped: 2 users');
      expect(r.stdout).toMatch(/Aborted: p95 \d+(\.\d)? ms broke p95<50 at 10s/);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary &
        Pick<RunResult, 'aborted'>;
      expect(summary.aborted).toMatchObject({ threshold: 'p95<50', at_ms: 10_000 });
      expect(summary.test_duration).toBeLessThan(13);
    } finally {
      target.route = answer;
    }
  }, 30_000);

  it('refuses an abort threshold that does not read and a threshold scoped to no API', async () => {
    const bad = await aqa('run', '--url', `${target.origin}/ok`, '--abort-threshold', 'p95 < soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('aqa: threshold "p95 < soon" is not understood');
    const scoped = await aqa('run', '--url', `${target.origin}/ok`, '--threshold', 'Login: p95<300');
    expect(scoped.code).toBe(2);
    expect(scoped.stderr).toContain(
      `the plan has no API named "Login"; its APIs are "GET ${target.origin}/ok"`,
    );
    expect(abortLines({})).toEqual([]);
    expect(
      abortLines({
        aborted: { text: 'p95 812 ms broke p95<500 at 2m14s' },
        breaking_point: { text: 'the highest rate that held: 40 iterations/s at 2m3s' },
      }),
    ).toEqual([
      '',
      'Aborted: p95 812 ms broke p95<500 at 2m14s',
      'Breaking point: the highest rate that held: 40 iterations/s at 2m3s',
    ]);
  });

  it('refuses --users beside --stage, and the profile flags on a server run', async () => {
    const local = await aqa('run', '--url', `${target.origin}/ok`, '--stage', '2s:4', '--users', '3');
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('aqa: --users cannot be given with --stage: the stages set the users');
    const remote = await aqa('run', '--plan', 'p1', '--server', 'http://127.0.0.1:1', '--stage', '2s:4');
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain(
      '--stage apply to local runs; with --plan the server runs the saved plan',
    );
  });
});

describe('thresholds', () => {
  it('parses units and compares against the summary', () => {
    const summary = {
      percentile_95: 250,
      error_rate: 0.5,
      requests_per_second: 900,
      percentile_999: 1200,
    } as RunSummary;
    const res = evaluateThresholds(
      ['p95<300', 'p95<0.2s', 'error_rate<1%', 'rps>=1000', 'p99.9<=1200ms'].map(parseThreshold),
      summary,
    );
    expect(res.map((r) => r.passed)).toEqual([true, false, true, false, true]);
    expect(() => parseThreshold('latency<3')).toThrow(/unknown metric/);
    expect(() => parseThreshold('rps<3%')).toThrow(/percentage/);
  });
});
