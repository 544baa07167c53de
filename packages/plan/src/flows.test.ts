import { describe, expect, it } from 'vitest';
import { PerfPlanSchema, ScriptRequestSchema } from './perf-plan';
import { describeIssues } from './migrate-plan';
import { flowCycle, planFlows } from './flows';
import { Gen, randomPerfPlan } from './testing/random-plan';

const url = (path: string, flow?: string) => ({
  url: `https://shop.test/${path}`,
  ...(flow === undefined ? {} : { flow }),
});

const withFlows = {
  name: 'Shop',
  flows: [
    { name: 'browse', weight: 70 },
    { name: 'search', weight: 30 },
  ],
  urls: [url('home', 'browse'), url('find', 'search'), url('item', 'browse')],
};

function issues(input: unknown) {
  const result = PerfPlanSchema.safeParse(input);
  if (result.success) throw new Error('expected the plan to be refused');
  return describeIssues(result.error);
}

describe('flows in the plan', () => {
  it('keeps the flows and each call’s flow', () => {
    const plan = PerfPlanSchema.parse(withFlows);
    expect(plan.flows).toEqual(withFlows.flows);
    expect(plan.urls.map((u) => u.flow)).toEqual(['browse', 'search', 'browse']);
    expect(planFlows(plan)).toEqual([
      { name: 'browse', weight: 70, urls: [0, 2] },
      { name: 'search', weight: 30, urls: [1] },
    ]);
  });

  it('a plan without flows is one flow of every call, and has no flows field', () => {
    const plan = PerfPlanSchema.parse({ name: 'Shop', urls: [url('a'), url('b')] });
    expect(plan.flows).toBeUndefined();
    expect('flow' in plan.urls[0]!).toBe(false);
    expect(planFlows(plan)).toEqual([{ name: '', weight: 1, urls: [0, 1] }]);
  });

  it('names a call whose flow is not listed, with the plan’s flows', () => {
    const urls = [...withFlows.urls, url('pay', 'buy')];
    expect(issues({ ...withFlows, urls })).toEqual([
      {
        field: 'urls[3].flow',
        message: 'urls[3].flow "buy" is not one of the plan\'s flows: browse, search',
      },
    ]);
  });

  it('refuses a call without a flow when the plan has flows, naming its index', () => {
    const urls = [...withFlows.urls, url('pay')];
    expect(issues({ ...withFlows, urls })).toEqual([
      {
        field: 'urls[3].flow',
        message: 'urls[3] has no flow: when a plan has flows, every call names one (browse, search)',
      },
    ]);
  });

  it('refuses a flow named by a call of a plan that lists none', () => {
    expect(issues({ name: 'Shop', urls: [url('a', 'browse')] })[0]).toMatchObject({ field: 'urls[0].flow' });
  });

  it('refuses a listed flow without a call, and a name listed twice, all at once', () => {
    const flows = [...withFlows.flows, { name: 'pay', weight: 5 }, { name: 'browse', weight: 1 }];
    expect(issues({ ...withFlows, flows })).toEqual([
      { field: 'flows[3].name', message: 'flows[3].name "browse" is listed twice' },
      { field: 'flows[2]', message: 'flows[2] "pay" has no call: name it in a call\'s flow, or remove it' },
    ]);
  });

  it.each([0, -1, 1001, 2.5, 'x'])('refuses the weight %s', (weight) => {
    const flows = [{ name: 'browse', weight }, withFlows.flows[1]];
    expect(issues({ ...withFlows, flows })).toEqual([
      { field: 'flows[0].weight', message: 'Flow weight must be a whole number from 1 to 1000' },
    ]);
  });

  it('refuses a blank flow name, a blank call flow, a name past 100 characters and an empty list', () => {
    expect(issues({ ...withFlows, flows: [] })[0]?.field).toBe('flows');
    const long = 'x'.repeat(101);
    const fields = issues({
      ...withFlows,
      flows: [{ name: ' ', weight: 1 }, { name: long, weight: 1 }, ...withFlows.flows],
      urls: [...withFlows.urls, url('x', '')],
    }).map((p) => p.field);
    expect(fields.slice(0, 3)).toEqual(['urls[3].flow', 'flows[0].name', 'flows[1].name']);
  });

  it('the script request checks flows too', () => {
    const urls = [...withFlows.urls, url('pay', 'buy')];
    expect(ScriptRequestSchema.safeParse({ ...withFlows, urls }).success).toBe(false);
    expect(ScriptRequestSchema.parse(withFlows).flows).toEqual(withFlows.flows);
  });

  it('random plans stay valid and some have flows', () => {
    const plans = Array.from({ length: 60 }, (_, seed) => randomPerfPlan(seed));
    expect(plans.some((p) => p.flows !== undefined)).toBe(true);
    for (const p of plans) expect(PerfPlanSchema.safeParse(p).success).toBe(true);
  });
});

describe('flowCycle', () => {
  it('gives each flow exactly its weight’s places in a cycle, spread evenly', () => {
    expect([...flowCycle([5, 1, 1])]).toEqual([0, 0, 1, 0, 2, 0, 0]);
    // 70 : 30 is 7 : 3 over a cycle of ten.
    const table = flowCycle([70, 30]);
    expect(table.length).toBe(10);
    expect(table.filter((f) => f === 0).length).toBe(7);
    // Evenly: every 10 consecutive iterations hold 7 of the first flow, give or take one.
    const cycle = flowCycle([71, 29]);
    expect(cycle.length).toBe(100);
    for (let start = 0; start + 10 <= 100; start++) {
      const first = cycle.subarray(start, start + 10).filter((f) => f === 0).length;
      expect(Math.abs(first - 7)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps every stretch from the start within two iterations of the exact shares, for any weights', () => {
    // So a run's shares are exact to within 2 iterations of each flow (docs/adr/0027-load-profiles.md "Flows").
    const g = Gen.of(27);
    for (let k = 0; k < 100; k++) {
      const weights = Array.from({ length: g.int(1, 8) }, () => g.int(1, 1000));
      const table = flowCycle(weights);
      const total = table.length;
      const sum = weights.reduce((a, b) => a + b, 0);
      const counts = weights.map(() => 0);
      let worst = 0;
      for (let n = 1; n <= total; n++) {
        counts[table[n - 1]!]!++;
        for (let i = 0; i < weights.length; i++)
          worst = Math.max(worst, Math.abs(counts[i]! - (n * weights[i]!) / sum));
      }
      expect(worst).toBeLessThan(2);
      // Each flow's share of the cycle is its weight's share.
      expect(counts.map((c) => c * sum)).toEqual(weights.map((w) => w * total));
    }
  });

  it('one flow is every iteration', () => {
    expect([...flowCycle([3])]).toEqual([0]);
  });
});
