import { migratePlan } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError, ValidationError } from '../../errors';
import type { AgentPlacement } from '../agents/agent-placement';
import { LoadKind } from './load-kind';
import type { LiveRun } from './live-run';
import type { EndedLoadRecord } from './load-run-store';
import type { RunnerRegistry } from './runner';

/*
 * The load runs' kind adapter (docs/run-lifecycle.md §7) before any place is held: the plan compiled,
 * the origins the guard decides, and the refusal of a run on agents without Redis; then its view and its
 * message's words. Its rebuild after a crash is proven by interrupted-run.test.ts and test/run-crash.test.ts. Its runner choice and
 * start are proven end to end by test/runs.test.ts, test/runs-in-tools.test.ts and test/agents.test.ts.
 */

const unused = {} as RunnerRegistry;
const guard = { checkUrl: () => Promise.resolve({ allowed: true }) } as never;
const silent = {} as FastifyBaseLogger;

const plan = migratePlan({
  name: 'Checkout',
  tool: 'k6',
  concurrent_users: 2,
  duration: 1,
  urls: [
    { url: 'https://shop.example.com/cart', thinkTime: '1s' },
    { url: '{{base}}/items', thinkTime: '1s' },
    {
      url: 'https://api.example.com:8443/pay',
      thinkTime: '1s',
      authorization: { type: 'oauth2', token: 'id:secret', tokenUrl: 'https://auth.example.com/token' },
    },
  ],
});

describe('LoadKind', () => {
  it("compiles the plan for its length, and names its steps' and token URLs' written-out origins", async () => {
    const prepared = await new LoadKind(unused, guard, silent).prepare({ plan, durationSeconds: 30 });
    expect(prepared.plan.durationSeconds).toBe(30);
    expect(prepared.plan.compiled.steps).toHaveLength(3);
    expect([...prepared.origins].sort()).toEqual([
      'https://api.example.com:8443',
      'https://auth.example.com',
      'https://shop.example.com',
    ]);
  });

  it('refuses a plan that cannot run, with the step it concerns, before anything starts', async () => {
    const broken = { ...plan, urls: [{ ...plan.urls[0]!, url: 'not a url' }] };
    const refused = await new LoadKind(unused, guard, silent)
      .prepare({ plan: broken, durationSeconds: 30 })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ code: 'PLAN_CANNOT_RUN' });
  });

  it('refuses a run on load agents when the server has no Redis, and not otherwise', () => {
    const load = new LoadKind(unused, guard, silent);
    expect(load.unavailable({ plan, durationSeconds: 30 })).toBeNull();
    expect(load.unavailable({ plan, durationSeconds: 30, agents: 2 })).toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(load.unavailable({ plan, durationSeconds: 30, agents: 2 })).toMatchObject({
      code: 'AGENTS_UNAVAILABLE',
    });
    load.useAgents({} as AgentPlacement);
    expect(load.unavailable({ plan, durationSeconds: 30, agents: 2 })).toBeNull();
  });

  it('shows another replica the live record and histogram, and words its message as a load test', () => {
    const load = new LoadKind(unused, guard, silent);
    const record = { id: 'run_1', plan_name: 'Checkout' };
    const live = { toRecord: () => record, histogram: () => null } as unknown as LiveRun;
    expect(load.view(live)).toEqual({ record, histogram: null });
    const ended = {
      plan_name: 'Checkout',
      status: 'completed',
      summary: { total_requests: 10, error_rate: 0, percentile_95: 450 },
      error: null,
      error_phrase: null,
      config: { plan: { thresholds: ['p95<300'] } },
    } as unknown as EndedLoadRecord;
    expect(load.message(ended)).toMatchObject({
      kind: 'threshold_failed',
      test_type: 'load',
      title: 'Checkout load test broke a threshold',
    });
    expect(load.message({ ...ended, status: 'stopped' })).toMatchObject({
      kind: 'stopped',
      title: 'Checkout load test was stopped',
    });
  });
});
