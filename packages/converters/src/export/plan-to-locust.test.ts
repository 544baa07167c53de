import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NASTY,
  escapingPlan,
  escapingStaticPlan,
  flowPlan,
  jsonFlowPlan,
  weightedFlowsPlan,
} from '../../test/plans';
import { startTargetServer } from '../../test/target';
import { LOCUST_PYTHON, locustMissing, removeDir, runCommand, runLocust, workDir } from '../../test/tools';
import { planToLocust } from './plan-to-locust';

const BASE = 'http://127.0.0.1:8080';
const CASES = {
  flow: flowPlan(BASE),
  'json-flow': jsonFlowPlan(BASE),
  escaping: escapingStaticPlan(BASE),
  'weighted-flows': weightedFlowsPlan(BASE),
};
const missing = locustMissing();

/** Requests and failures per name from Locust's summary table. */
function summary(stdout: string): Map<string, { requests: number; failures: number }> {
  const rows = new Map<string, { requests: number; failures: number }>();
  for (const line of stdout.split('\n')) {
    const row = /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+(.+?)\s+(\d+)\s+(\d+)\(/.exec(line);
    if (row?.[1]) rows.set(row[1], { requests: Number(row[2]), failures: Number(row[3]) });
  }
  return rows;
}

describe('planToLocust', () => {
  it.each(Object.entries(CASES))('writes the %s locustfile', async (name, plan) => {
    const { files, warnings } = planToLocust(plan);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^testplan_locust_.*\.py$/)]);
    expect(warnings.filter((w) => !w.message.includes('is not extracted by any step'))).toEqual([]);
    await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/locust/${name}.py`);
  });

  it.skipIf(missing)('writes Python that compiles, whatever the plan holds', async () => {
    const files = Object.fromEntries(
      Object.entries(CASES).map(([name, plan]) => [
        `${name.replace('-', '_')}.py`,
        planToLocust(plan).files[0]?.content ?? '',
      ]),
    );
    const dir = workDir(files);
    const result = await runCommand(LOCUST_PYTHON, ['-m', 'py_compile', ...Object.keys(files)], {
      cwd: dir,
      timeoutMs: 30_000,
    });
    removeDir(dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('lets requests follow no redirect, on any request, the token request too', () => {
    // docs/adr/0015-target-guard.md "Redirects": python-requests follows by default, without the guard.
    const code = planToLocust(jsonFlowPlan(BASE)).files[0]?.content ?? '';
    const calls = code.split('\n').filter((line) => /self\.client\.(request|post)\(/.test(line));
    expect(calls).toHaveLength(7);
    expect(calls.filter((line) => !line.includes('allow_redirects=False'))).toEqual([]);
  });

  it('says which XPath the Locust script cannot read', () => {
    const plan = flowPlan(BASE);
    const urls = plan.urls.map((u, i) => (i === 2 ? { ...u, extractValue: 'count(//ref)' } : u));
    expect(planToLocust({ ...plan, urls }).warnings).toEqual([
      {
        field: 'urls[2].extractValue',
        message:
          'XPath "count(//ref)" needs more than the element paths Python\'s ElementTree reads (no functions, axes or namespaces); it is left out of the Locust script',
      },
    ]);
  });
});

describe('a generated locustfile in Locust (headless)', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof startTargetServer>>;
  beforeAll(async () => {
    if (missing) {
      console.warn(`Skipping the Locust runs and the Python compile check: ${missing}`);
      return;
    }
    server = await startTargetServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function run(plan: ReturnType<typeof flowPlan>, options?: { users?: number; seconds?: number }) {
    server.target.requests.length = 0;
    server.target.sessions.length = 0;
    server.target.mismatches.length = 0;
    const dir = workDir({ 'plan.py': planToLocust(plan).files[0]?.content ?? '' });
    const result = await runLocust(dir, 'plan.py', server.base, options);
    removeDir(dir);
    // Locust prints its summary through logging, on stderr.
    return { result, table: summary(`${result.stdout}\n${result.stderr}`) };
  }

  it.skipIf(missing)(
    'sends the steps in order with extracted values, sequence numbers and every kind of authorization',
    async () => {
      const { result, table } = await run(flowPlan(server.base));
      const { target } = server;
      expect(target.mismatches).toEqual([]);
      expect(result.code, result.stderr.slice(-2000)).toBe(0);
      expect(target.sessions.length).toBeGreaterThan(4);
      // Each login's token, profile id and xml reference reached the later steps of the same user, in order.
      const complete = target.sessions.slice(0, -2);
      for (const session of complete) expect(session.steps.slice(0, 3)).toEqual(['login', 'profile', 'save']);
      const withRef = complete.filter((s) => s.steps.includes('ref')).length;
      expect(withRef).toBeGreaterThan(0);
      expect(withRef).toBeLessThan(complete.length);
      // One shared counter: the logins cycle through u1..u5.
      const seqs = target.sessions.map((s) => Number(s.seq));
      expect(new Set(seqs)).toEqual(new Set([1, 2, 3, 4, 5]));
      expect(target.count('POST', '/oauth/token')).toBe(2);
      expect(target.count('GET', '/api/secure')).toBeGreaterThan(2);
      expect(target.count('GET', '/api/ping')).toBeGreaterThan(2);
      expect([...table.values()].every((row) => row.failures === 0)).toBe(true);
      expect(table.get('1. Login')?.requests).toBeGreaterThan(4);
    },
  );

  it.skipIf(missing)(
    'evaluates JSONPath extraction and JSON assertions, failing the request when an assertion fails',
    async () => {
      const { table } = await run(jsonFlowPlan(server.base));
      expect(server.target.mismatches).toEqual([]);
      for (const session of server.target.sessions.slice(0, -2)) {
        expect(session.steps.slice(0, 3)).toEqual(['login', 'profile', 'save']);
      }
      const save = table.get('3. Save profile');
      expect(save?.failures).toBe(save?.requests);
      expect(table.get('1. Login')?.failures).toBe(0);
      expect(table.get('5. Secure')?.failures).toBe(0);
    },
  );

  it.skipIf(missing)(
    'runs one flow per iteration, chosen by the weights (3 : 1), its calls in order',
    async () => {
      const { result, table } = await run(weightedFlowsPlan(server.base), { users: 2, seconds: 3 });
      expect(result.code, result.stderr.slice(-2000)).toBe(0);
      const home = table.get('1. Home')?.requests ?? 0;
      const search = table.get('2. Search')?.requests ?? 0;
      const item = table.get('3. Item')?.requests ?? 0;
      // Each browse iteration sends Home and Item, and no search iteration does (at most one browse per
      // user cut short between them at the end).
      expect(home - item).toBeGreaterThanOrEqual(0);
      expect(home - item).toBeLessThanOrEqual(2);
      expect(home + search).toBeGreaterThan(500);
      // Locust draws each task at random by its weight: within 5 points of 75 % over hundreds of
      // iterations (the built-in engine and k6 split whole cycles exactly).
      expect(Math.abs((home / (home + search)) * 100 - 75)).toBeLessThan(5);
    },
  );

  it.skipIf(missing)('sends text that is neither code nor a template exactly as written', async () => {
    const { table } = await run(escapingPlan(server.base), { users: 1, seconds: 2 });
    const echo = server.target.requests.find((r) => r.path.startsWith('/api/echo'));
    expect(echo?.path).toBe("/api/echo/cost$5'a");
    expect(echo?.headers['x-nasty']).toBe(NASTY.header);
    expect(echo?.query).toEqual([['q', NASTY.query]]);
    expect(echo?.body).toBe(NASTY.body);
    expect(table.get('2. Must fail its assertion')?.failures).toBeGreaterThan(0);
  });
});
