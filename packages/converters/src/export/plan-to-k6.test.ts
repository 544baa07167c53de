import { describe, expect, it } from 'vitest';
import { runK6Script, typeCheckK6 } from '../../test/k6-harness';
import {
  NASTY,
  escapingPlan,
  escapingStaticPlan,
  flowPlan,
  jsonFlowPlan,
  weightedFlowsPlan,
} from '../../test/plans';
import { Target, type TargetRequest, type TargetResponse } from '../../test/target';
import { flowCycle, migratePlan } from '@aqa/plan';
import { planToK6 } from './plan-to-k6';

const BASE = 'http://127.0.0.1:8080';
const CASES = {
  flow: flowPlan(BASE),
  'json-flow': jsonFlowPlan(BASE),
  escaping: escapingStaticPlan(BASE),
  'weighted-flows': weightedFlowsPlan(BASE),
};

const isTokenRequest = (r: { tags: unknown }) => (r.tags as { name?: string }).name === 'OAuth2 token';

/** Alternates below and above 50 % so a 50 % transaction rate runs every other time. */
function alternating(): () => number {
  let n = 0;
  return () => (n++ % 2 === 0 ? 0.25 : 0.75);
}

describe('planToK6', () => {
  it.each(Object.entries(CASES))('writes the %s script', async (name, plan) => {
    const { files } = planToK6(plan);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^testplan_k6_.*\.js$/)]);
    await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/k6/${name}.js`);
  });

  it.each(Object.entries(CASES))('writes a %s script that type-checks against @types/k6', (_name, plan) => {
    const script = planToK6(plan).files[0]?.content ?? '';
    expect(typeCheckK6(script)).toEqual([]);
  });

  it('reports type errors, so a clean check means something', () => {
    expect(typeCheckK6("import http from 'k6/http';\nhttp.request(1);\n").length).toBeGreaterThan(0);
  });

  it('says that k6 cannot do XPath, naming the fields', () => {
    expect(planToK6(flowPlan(BASE)).warnings).toEqual([
      {
        field: 'urls[2].assertionType',
        message: 'k6 has no XML or XPath support, so the xml assertion is left out',
      },
      {
        field: 'urls[2].extractType',
        message: 'k6 has no XML or XPath support, so the xml extraction is left out',
      },
    ]);
    expect(planToK6(jsonFlowPlan(BASE)).warnings).toEqual([]);
  });
});

describe('the flow cycle', () => {
  it("is the engine's own cycle written out (flowCycle), weights divided by their greatest common divisor", () => {
    const plan = weightedFlowsPlan(BASE, {
      flows: [
        { name: 'browse', weight: 70 },
        { name: 'search', weight: 30 },
      ],
    });
    const script = planToK6(plan).files[0]?.content ?? '';
    const written = /const FLOW_CYCLE = \[([^\]]*)\];/.exec(script)?.[1] ?? '';
    const cycle = written.split(',').flatMap((n) => (n.trim() === '' ? [] : [Number(n)]));
    expect(cycle).toEqual([...flowCycle([70, 30])]);
    expect(cycle).toHaveLength(10);
    expect(script).not.toContain('function flowCycle');
  });
});

describe('a generated k6 script in the k6 harness', () => {
  it('runs one flow per iteration, split exactly by the weights over whole cycles, its calls in order', () => {
    const target = new Target();
    const script = planToK6(weightedFlowsPlan(BASE)).files[0]?.content ?? '';
    const run = runK6Script(script, target, { vus: 2, iterations: 20 });
    const byIteration = new Map<string, string[]>();
    for (const r of run.requests) {
      const key = `${r.vu}/${r.iteration}`;
      byIteration.set(key, [...(byIteration.get(key) ?? []), new URL(r.url).pathname]);
    }
    const iterations = [...byIteration.values()].map((paths) => paths.join(' '));
    expect(iterations).toHaveLength(40);
    // 40 iterations are 10 cycles of 3 + 1: exactly 30 browse, 10 search, each in plan order.
    expect(iterations.filter((i) => i === '/api/echo/home /api/echo/item')).toHaveLength(30);
    expect(iterations.filter((i) => i === '/api/echo/search')).toHaveLength(10);
    expect(run.requests.map((r) => (r.tags as { flow?: string }).flow)).not.toContain(undefined);
  });

  it('runs the steps in order per VU, carrying extracted values, sequence numbers and the OAuth2 token', () => {
    const target = new Target();
    const script = planToK6(jsonFlowPlan(BASE)).files[0]?.content ?? '';
    const run = runK6Script(script, target, { vus: 2, iterations: 6, random: alternating() });

    expect(target.mismatches).toEqual([]);
    expect(run.options).toEqual({ vus: 2, duration: '60s', maxRedirects: 0 });
    // Each request, the token's too, follows no redirect whatever the environment sets
    // (docs/adr/0015-target-guard.md "Redirects").
    expect(run.requests.length).toBeGreaterThan(0);
    expect(run.requests.filter((r) => r.redirects !== 0)).toEqual([]);
    // One token per VU, fetched before its first use.
    expect(target.count('POST', '/oauth/token')).toBe(2);
    for (const vu of [1, 2]) {
      for (let iteration = 0; iteration < 6; iteration++) {
        const sent = run.requests.filter((r) => r.vu === vu && r.iteration === iteration);
        const groups = sent.filter((r) => !isTokenRequest(r)).map((r) => r.group);
        // The token is fetched inside the step that first needs it, right before it, in the first iteration only.
        expect(sent.filter(isTokenRequest).map((r) => r.group)).toEqual(iteration === 0 ? ['5. Secure'] : []);
        const expected = [
          '1. Login',
          '2. Profile',
          '3. Save profile',
          '4. Reference',
          '5. Secure',
          '6. Ping',
        ];
        const withoutRate = expected.filter((g) => g !== '4. Reference');
        expect([expected, withoutRate]).toContainEqual(groups);
      }
    }
    // Every session went login → profile → save (→ ref): the values extracted from one step reached the next.
    expect(target.sessions).toHaveLength(12);
    for (const session of target.sessions)
      expect(session.steps.slice(0, 3)).toEqual(['login', 'profile', 'save']);
    expect(target.sessions.filter((s) => s.steps.includes('ref')).length).toBe(6);
    // {{sequence_number,5}} follows the run-wide iteration index and wraps after 5.
    expect(target.sessions.map((s) => Number(s.seq))).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2]);
    // The equals assertion of step 3 expects r-0, which no session has: it fails every time, the rest pass.
    const failed = run.checks.filter((c) => !c.ok).map((c) => c.name);
    expect(failed).toEqual(
      Array(12).fill('3. Save profile: body equals <result><status>saved</status><ref>r-0</ref></result>'),
    );
    // Login, profile and secure each iteration, reference in half of them.
    expect(run.checks.filter((c) => c.ok).length).toBe(12 * 3 + 6);
    expect(run.rates.aqa_errors?.filter(Boolean)).toHaveLength(12);
    expect(run.sleeps.filter((s) => s === 0.2)).toHaveLength(6);
  });

  it('sends text that is neither code nor a template exactly as written, and counts a failed assertion', () => {
    const target = new Target();
    const run = runK6Script(planToK6(escapingPlan(BASE)).files[0]?.content ?? '', target, {
      vus: 1,
      iterations: 1,
    });
    const echo = target.requests.find((r) => r.path.startsWith('/api/echo'));
    expect(echo?.path).toBe("/api/echo/cost$5'a");
    expect(echo?.headers['x-nasty']).toBe(NASTY.header);
    expect(echo?.query).toEqual([['q', NASTY.query]]);
    expect(echo?.body).toBe(NASTY.body);
    expect(run.checks).toEqual([
      { vu: 1, name: '2. Must fail its assertion: body equals not the body', ok: false },
    ]);
    expect(run.rates.aqa_errors).toEqual([false, true]);
  });
});

describe('JSON literals in a k6 script (docs/design.md §4 "JSON literals")', () => {
  /** Answers one JSON document to every request. */
  class JsonTarget extends Target {
    override handle(_req: TargetRequest): TargetResponse {
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"user":{"name":"ada","id":"7"},"count":10,"ok":true,"gone":null}',
      };
    }
  }
  const json = (name: string, assertionPath: string, assertionValue: string, op = 'equals') => ({
    name,
    url: `${BASE}/${name}`,
    thinkTime: '0',
    assertionType: 'json',
    assertionPath,
    assertionValue,
    assertionOperator: op,
  });

  it('compares a quoted string, a number, true and null as those values, and "7" is no 7', () => {
    const plan = migratePlan({
      name: 'literals',
      concurrent_users: 1,
      duration: 1,
      urls: [
        json('quoted', '$.user.name', '"ada"'),
        json('number', '$.count', '10.0'),
        json('boolean', '$.ok', 'true'),
        json('null', '$.gone', 'null'),
        json('bare', '$.user.name', 'ada'),
        json('not', '$.user.name', '"bob"', 'not_equals'),
        json('typed', '$.user.id', '7'),
      ],
    });
    const script = planToK6(plan).files[0]?.content ?? '';
    expect(typeCheckK6(script)).toEqual([]);
    const run = runK6Script(script, new JsonTarget(), { vus: 1, iterations: 1 });
    expect(run.checks.map((c) => [c.name.split(':')[0], c.ok])).toEqual([
      ['1. quoted', true],
      ['2. number', true],
      ['3. boolean', true],
      ['4. null', true],
      ['5. bare', true],
      ['6. not', true],
      ['7. typed', false],
    ]);
  });
});
