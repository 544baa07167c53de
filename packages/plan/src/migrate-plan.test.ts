import { describe, expect, it } from 'vitest';
import { PLAN_SCHEMA_VERSION } from './perf-plan';
import { FUNCTIONAL_PLAN_SCHEMA_VERSION } from './functional';
import {
  fieldPath,
  migrateFunctionalPlan,
  migratePlan,
  normalizePlan,
  safeMigrateFunctionalPlan,
  safeMigratePlan,
} from './migrate-plan';

describe('migratePlan', () => {
  it('brings a plan in the spec client shape to the current schema', () => {
    const plan = migratePlan({
      _id: 42,
      planName: 'Legacy',
      tool: 'JMeter',
      concurrent_users: '25',
      duration: '3',
      urls: [
        {
          method: 'post',
          url: 'https://api.test/login',
          parameters: [{ name: 'page', value: 2 }],
          headers: { Accept: 'application/json' },
          auth: { type: 'apikey', keyName: 'X-Key', keyValue: 'secret' },
          body: '{"a":1}',
          thinkTime: 1.5,
          transactionRate: '50',
          timeout: '60',
        },
      ],
    });
    expect(plan).toMatchObject({
      schema_version: PLAN_SCHEMA_VERSION,
      id: '42',
      name: 'Legacy',
      tool: 'jmeter',
      concurrent_users: 25,
      duration: 3,
    });
    expect(plan.urls[0]).toMatchObject({
      method: 'POST',
      parameters: [{ key: 'page', value: '2' }],
      headers: [{ name: 'Accept', value: 'application/json' }],
      authorization: { type: 'api_key', keyName: 'X-Key', keyValue: 'secret' },
      payload: '{"a":1}',
      thinkTime: '1.5',
      transactionRate: 50,
      timeout: 60,
    });
  });

  it('leaves a current plan as it is', () => {
    const current = migratePlan({ name: 'Now', urls: [{ url: 'http://a.test' }] });
    expect(migratePlan(current)).toEqual(current);
  });

  it('reports every problem after migrating instead of throwing on the first', () => {
    const result = safeMigratePlan({ concurrent_users: 'many', urls: [{ url: '' }] });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.issues.map((i) => fieldPath(i.path))).toEqual([
        'name',
        'concurrent_users',
        'urls[0].url',
      ]);
    }
  });

  it('passes non-objects through for the schema to refuse', () => {
    expect(normalizePlan('plan')).toBe('plan');
    expect(safeMigratePlan(null).success).toBe(false);
  });
});

describe('a plan with a load profile', () => {
  const urls = [{ url: 'http://127.0.0.1:1/' }];

  it('keeps concurrent_users and duration true to the profile: peak users and minutes rounded up', () => {
    const plan = migratePlan({
      name: 'Ramp',
      concurrent_users: 3,
      duration: 9,
      urls,
      load_profile: {
        model: 'users',
        stages: [
          { duration: '30s', target: 50 },
          { duration: '1m', target: 50 },
          { duration: '10s', target: 0 },
        ],
      },
    });
    expect([plan.concurrent_users, plan.duration]).toEqual([50, 2]);
    expect(plan.load_profile?.graceful_stop).toBe('10s');
  });

  it("counts the open model's pool as its users, and a 10-second profile as one minute", () => {
    const plan = migratePlan({
      name: 'Rate',
      urls,
      load_profile: { model: 'arrival_rate', stages: [{ duration: '10s', target: 200 }], max_users: 40 },
    });
    expect([plan.concurrent_users, plan.duration]).toEqual([40, 1]);
    expect(
      safeMigratePlan({ name: 'Rate', urls, load_profile: plan.load_profile }).data?.concurrent_users,
    ).toBe(40);
  });

  it('refuses a profile that cannot run, naming the field, and leaves a plan without one as it was', () => {
    const read = safeMigratePlan({
      name: 'Bad',
      urls,
      load_profile: { model: 'users', stages: [{ duration: 'soon', target: 5 }] },
    });
    expect(read.success).toBe(false);
    expect(read.error?.issues[0]?.path).toEqual(['load_profile', 'stages', 0, 'duration']);
    const plain = migratePlan({ name: 'Plain', concurrent_users: 3, duration: 9, urls });
    expect([plain.concurrent_users, plain.duration, plain.load_profile]).toEqual([3, 9, undefined]);
  });
});

describe('migrateFunctionalPlan', () => {
  const saved = {
    test_name: 'Orders',
    source: 'url_input',
    apis: [{ name: 'List', url: 'https://example.test/orders' }],
  };

  it('reads a saved plan of the first version, and one that names none, as the current schema', () => {
    const current = migrateFunctionalPlan({ ...saved, schema_version: 1 });
    expect(current.schema_version).toBe(FUNCTIONAL_PLAN_SCHEMA_VERSION);
    expect(current.test_framework).toBe('taurus');
    expect(migrateFunctionalPlan(saved)).toEqual(current);
    // The id older answers named _id.
    expect(migrateFunctionalPlan({ ...saved, _id: 'fp_1' }).id).toBe('fp_1');
  });

  it('reports every problem of a plan it cannot read instead of throwing on the first', () => {
    const read = safeMigrateFunctionalPlan({ ...saved, test_name: '', iterations: 0 });
    expect(read.success).toBe(false);
    expect(read.error?.issues.map((issue) => fieldPath(issue.path))).toEqual(['test_name', 'iterations']);
    expect(safeMigrateFunctionalPlan({ ...saved, schema_version: 99 }).success).toBe(false);
    expect(safeMigrateFunctionalPlan('not a plan').success).toBe(false);
  });
});
