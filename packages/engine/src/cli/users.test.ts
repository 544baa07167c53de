import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_USERS, safeMigratePlan } from '@aqa/plan';
import { machineLimits } from '../executor/capacity';
import { TestTarget } from '../testing/target';
import type { RunSummary } from '../types';

// `aqa run --users` goes past the plan form's 1–1000 (docs/reference/01-authoring.md §5); the form's
// schema keeps its range.
const BIN = fileURLToPath(new URL('../../bin/aqa.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'aqa-users-'));
const target = new TestTarget(0);
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

function sh(
  script: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const aqa = (...args: string[]) => sh('exec "$0" "$@"', process.execPath, BIN, ...args);

const limits = machineLimits();
// This process holds the target's end of every connection, the aqa process the other.
const roomy = limits.openFiles === null || limits.openFiles >= 5000 + 500;

describe('aqa run --users past the form', () => {
  it('the plan form schema still refuses 1001 users', () => {
    const form = safeMigratePlan({
      name: 'p',
      concurrent_users: MAX_USERS + 1,
      urls: [{ url: 'http://x/' }],
    });
    expect(form.success).toBe(false);
    expect(form.error?.issues.map((i) => i.message)).toContain(
      'Concurrent users must be a whole number from 1 to 1000',
    );
  });

  it.runIf(roomy)(
    'accepts --users 5000 and runs them, counted exactly',
    async () => {
      target.reset();
      const summaryFile = join(dir, 'summary-5000.json');
      const r = await aqa(
        'run',
        '--url',
        `${target.origin}/five-thousand`,
        '--users',
        '5000',
        '--duration',
        '2s',
        '--quiet',
        '--summary-json',
        summaryFile,
      );
      expect(r.stderr).not.toContain('aqa:');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('5000 users');
      const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary & {
        errors: Record<string, { count: number }>;
      };
      expect(s.concurrent_users).toBe(5000);
      expect(target.count).toBeGreaterThan(0);
      // Every request the target received is counted; what it had not read when the run ended
      // (sent, still in its accept queue on a busy machine) is counted as cancelled, nothing else.
      const cancelled = s.errors.cancelled?.count ?? 0;
      expect(s.total_requests).toBeGreaterThanOrEqual(target.count);
      expect(s.total_requests - target.count).toBeLessThanOrEqual(cancelled);
      expect(Object.keys(s.errors).filter((k) => k !== 'cancelled')).toEqual([]);
    },
    90_000,
  );

  it('accepts a plan file past 1000 users and refuses one past the engine limit, saying why', async () => {
    const planFile = join(dir, 'too-many.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'too many',
        concurrent_users: 2_000_000,
        urls: [{ url: `${target.origin}/x` }],
      }),
    );
    const fromFile = await aqa('run', planFile, '--duration', '1s', '--quiet');
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(
      'concurrent_users: Concurrent users must be a whole number from 1 to 1,000,000 for the built-in engine (the plan form allows 1 to 1000)',
    );
    const fromFlag = await aqa('run', planFile, '--users', '1000001', '--duration', '1s', '--quiet');
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain(
      '--users 1000001 is more than the engine runs on one machine (at most 1,000,000)',
    );
  });

  it('says before starting when the open-files limit cannot hold the users, and sends nothing', async () => {
    target.reset();
    const r = await sh(
      'ulimit -n 400 && exec "$0" "$@"',
      process.execPath,
      BIN,
      'run',
      '--url',
      `${target.origin}/fd`,
      '--users',
      '5000',
      '--duration',
      '1s',
      '--quiet',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('aqa: this machine cannot hold the run:');
    expect(r.stderr).toMatch(
      /5,000 virtual users need about 5,\d{3} open files .* at most 400: raise the limit/,
    );
    expect(target.count).toBe(0);
    expect(target.connections).toBe(0);
  });
});
