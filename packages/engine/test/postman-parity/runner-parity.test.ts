import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postmanToFunctionalPlan } from '@aqa/converters';
import { FunctionalPlanSchema, type CallResult } from '@aqa/plan';
import { FunctionalRunner } from '../../src/functional/runner';
import { ParityApi } from './parity-api';
import { agreement, describeDisagreement } from './compare';
import { PARITY_DIR, runNewman } from './run-newman';

/*
 * Each parity collection run twice against the same local API: by real Newman, and imported
 * (postmanToFunctionalPlan) then run by our functional runner. Every assertion Newman reports is looked
 * up in our run by iteration, request, test name and occurrence, and compared passed for passed; the
 * agreement rate is printed and recorded in docs/adr/0029-postman-collections.md §3.
 */

const api = new ParityApi();
const ENVIRONMENT = join(PARITY_DIR, 'environments/local.postman_environment.json');
const collection = (name: string): string =>
  join(PARITY_DIR, 'collections', `${name}.postman_collection.json`);
const TIMEOUT_MS = 90_000;

beforeAll(async () => {
  await api.start();
});
afterAll(async () => {
  await api.close();
});

async function ours(name: string, data?: string): Promise<CallResult[]> {
  const imported = postmanToFunctionalPlan(
    { name: `${name}.postman_collection.json`, text: readFileSync(collection(name), 'utf8') },
    {
      environment: { name: 'local.postman_environment.json', text: readFileSync(ENVIRONMENT, 'utf8') },
      ...(data
        ? { data: { name: data, text: readFileSync(join(PARITY_DIR, 'data-files', data), 'utf8') } }
        : {}),
    },
  );
  const plan = FunctionalPlanSchema.parse({ ...imported.plan, think_time: 0 });
  // As newman's --env-var baseUrl=…
  const values = (plan.environment?.values ?? []).filter((v) => v.name !== 'baseUrl');
  values.push({ name: 'baseUrl', value: api.origin });
  plan.environment = { name: plan.environment?.name ?? 'local', values };
  const calls: CallResult[] = [];
  await new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => calls.push(j.call) }).run();
  return calls;
}

describe('our runner against Newman, assertion by assertion', () => {
  it(
    'agrees on the parity collections',
    async () => {
      const runs: [string, string | undefined][] = [
        ['legacy', undefined],
        ['shop', undefined],
        ['data-driven', 'orders.csv'],
        ['data-driven', 'orders.json'],
      ];
      let total = 0;
      let agreed = 0;
      const lines: string[] = [];
      for (const [name, data] of runs) {
        const newman = await runNewman({
          collection: collection(name),
          environment: ENVIRONMENT,
          ...(data ? { data: join(PARITY_DIR, 'data-files', data) } : {}),
          envVar: { baseUrl: api.origin },
        });
        const r = agreement(newman, await ours(name, data));
        total += r.total;
        agreed += r.agreed;
        lines.push(
          `${name}${data ? ` + ${data}` : ''}: ${r.agreed}/${r.total}`,
          ...r.disagree.map((d) => `  ${describeDisagreement(d)}`),
        );
      }
      const rate = Math.round((agreed / total) * 1000) / 10;
      console.log(`Newman parity: ${agreed}/${total} assertions agree (${rate}%)\n${lines.join('\n')}`);
      // Recorded in docs/adr/0029-postman-collections.md §3.
      expect(total).toBe(84);
      expect(agreed).toBe(total);
    },
    TIMEOUT_MS,
  );
});

const BIN = join(PARITY_DIR, '../../bin/aqa.mjs');

/** `aqa test` as a user runs it (a child process: the API answers from this one meanwhile). */
function aqaTest(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'test', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('aqa test with a Postman collection file', () => {
  it(
    'runs the collection with its environment and data file, one JUnit case per assertion, failing as Newman fails',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aqa-parity-'));
      // The suite's environment with baseUrl pointed at this run's API (as newman's --env-var).
      const env = JSON.parse(readFileSync(ENVIRONMENT, 'utf8')) as {
        values: { key: string; value: string }[];
      };
      for (const v of env.values) if (v.key === 'baseUrl') v.value = api.origin;
      const envFile = join(dir, 'env.json');
      writeFileSync(envFile, JSON.stringify(env));
      const junitFile = join(dir, 'report.xml');
      const data = join(PARITY_DIR, 'data-files/orders.csv');
      const r = await aqaTest([
        collection('data-driven'),
        '--environment',
        envFile,
        '--data',
        data,
        '--junit',
        junitFile,
      ]);
      const newman = await runNewman({
        collection: collection('data-driven'),
        environment: ENVIRONMENT,
        data,
        envVar: { baseUrl: api.origin },
      });
      expect(r.stderr).toMatch(/data-driven\.postman_collection\.json: a Postman collection — \d+ tests: /);
      // Newman fails one assertion of this run (by design): so does aqa test, and it exits 1.
      const failedByNewman = newman.filter((o) => !o.passed).length;
      expect(failedByNewman).toBeGreaterThan(0);
      expect(r.code).toBe(1);
      const xml = readFileSync(junitFile, 'utf8');
      expect((xml.match(/<failure/g) ?? []).length).toBe(failedByNewman);
      rmSync(dir, { recursive: true, force: true });
    },
    TIMEOUT_MS,
  );
});
