import { describe, expect, it } from 'vitest';
import { PLAN_SCHEMA_VERSION } from './perf-plan';
import { fieldPath, migratePlan, normalizePlan, safeMigratePlan } from './migrate-plan';

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
