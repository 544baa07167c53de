import type { FunctionalRunHandle, FunctionalRunOptions } from '@aqa/engine';
import { type FunctionalPlan, FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import type { FunctionalRunRow } from '../../db/schema';
import type { StoredCall } from './functional-checkpoint';
import { adapterFor, adapterOfStored, functionalKinds } from './functional-kinds';
import type { UiRunSupport } from './ui-runs';

/*
 * The API, script and UI adapters (docs/run-lifecycle.md §7) on a fake runner and browser pool: which
 * adapter runs a plan, which origins each guards before the start, and what each runner is given. The
 * runs themselves are proven end to end by test/functional-runs.test.ts, functional-scripts.test.ts and
 * ui-runs.test.ts.
 */

const handle: FunctionalRunHandle = {
  result: new Promise(() => undefined),
  stop: () => Promise.resolve(),
};

function fakes(browserProblem: string | null = null) {
  const started: { runner: 'calls' | 'ui'; options: object }[] = [];
  const ui: UiRunSupport = {
    start: (_plan, options) => (started.push({ runner: 'ui', options }), handle),
    browserProblem: () => browserProblem,
    pageUrls: () => ['https://shop.example.com/cart', 'http://{{host}}/x', 'https://shop.example.com/'],
  };
  const startRun = (_plan: FunctionalPlan, options?: FunctionalRunOptions) => (
    started.push({ runner: 'calls', options: options ?? {} }),
    handle
  );
  return { kinds: functionalKinds(startRun, ui), started };
}

const apiPlan = FunctionalPlanSchema.parse({
  test_name: 'Orders',
  apis: [
    { name: 'List', url: 'https://api.example.com/orders' },
    {
      name: 'Templated',
      url: 'https://{{host}}/orders',
      authorization: {
        type: 'oauth2',
        tokenUrl: 'https://auth.example.com:8443/token',
        clientId: 'id',
        clientSecret: 'secret',
      },
    },
  ],
});

const uiPlan = { ...apiPlan, test_type: 'ui', source: 'ui_url_input' } as FunctionalPlan;
const seleniumScript = {
  ...apiPlan,
  source: 'script_input',
  test_framework: 'selenium',
} as FunctionalPlan;

describe('the functional kind adapters', () => {
  it('run an API plan by its calls, and a UI plan or a Selenium script in a browser', () => {
    const { kinds } = fakes();
    expect(adapterFor(kinds, apiPlan)).toBe(kinds.api);
    expect(adapterFor(kinds, uiPlan)).toBe(kinds.ui);
    expect(adapterFor(kinds, seleniumScript)).toBe(kinds.ui);
  });

  it("guard an API plan's written-out call and token hosts, and a UI plan's written-out pages", async () => {
    const { kinds } = fakes();
    const api = await kinds.api.prepare(apiPlan);
    expect(api.plan).toBe(apiPlan);
    expect([...api.origins]).toEqual(['https://api.example.com', 'https://auth.example.com:8443']);
    const ui = await kinds.ui.prepare(uiPlan);
    expect([...ui.origins]).toEqual(['https://shop.example.com']);
  });

  it('refuse a UI run on a server without a browser, saying what to install', () => {
    expect(fakes().kinds.ui.unavailable(uiPlan)).toBeNull();
    expect(fakes().kinds.api.unavailable(apiPlan)).toBeNull();
    expect(fakes('Install Chromium').kinds.ui.unavailable(uiPlan)).toMatchObject({
      code: 'BROWSER_UNAVAILABLE',
      message: 'Install Chromium',
    });
  });

  it("give the calls runner only what its worker can be sent, and the UI runner a UI run's hooks", () => {
    const { kinds, started } = fakes();
    const options = {
      guard: { allow: [], deny: [], ownPorts: [] },
      onCall: () => undefined,
      owner: 'alice',
      saveScreenshot: () => Promise.resolve('ss_1'),
      onQueued: () => undefined,
    };
    kinds.api.start(apiPlan, options);
    kinds.ui.start(uiPlan, options);
    expect(Object.keys(started[0]!.options).sort()).toEqual(['guard', 'onCall']);
    expect(started[1]).toEqual({ runner: 'ui', options });
  });

  it("rebuild a dead server's run by its kind's tally, and word its message in calls or in steps", () => {
    const { kinds } = fakes();
    // A plan that no longer reads: its stored kind tells.
    expect(adapterOfStored(kinds, { kind: 'ui' }, null)).toBe(kinds.ui);
    expect(adapterOfStored(kinds, { kind: 'script' }, null)).toBe(kinds.script);
    expect(adapterOfStored(kinds, { kind: 'script' }, seleniumScript)).toBe(kinds.ui);
    const row = {
      id: 'fr_dead',
      user_id: 'alice',
      plan_id: null,
      test_name: 'Checkout',
      start_time: '2030-01-01T00:00:00.000Z',
    } as FunctionalRunRow;
    const call = {
      api_name: 'List',
      method: 'GET',
      url: 'https://api.example.com/orders',
      status_code: 200,
      response_time: 3,
      success: true,
      validation_details: [],
    };
    const calls: StoredCall[] = [
      { i: 0, at: 5, ms: 10, call },
      { i: 0, at: 40, ms: 45, call: { ...call, success: false, status_code: 500 } },
    ];
    const told = (kind: 'api' | 'ui') => {
      const adapter = kinds[kind];
      const ended = adapter.recover(row, { plan: null, calls });
      expect(ended.changes).toMatchObject({ status: 'interrupted', end_time: '2030-01-01T00:00:00.045Z' });
      expect(ended.notice.summary).toMatchObject({ total_requests: 2, successful_requests: 1 });
      return adapter.message(ended.notice);
    };
    expect(told('api')).toMatchObject({
      test_type: 'api',
      title: 'Checkout API test was interrupted',
      body: '2 calls: 1 passed, 1 failed · The server stopped during the run, so it did not finish',
    });
    expect(told('ui')).toMatchObject({
      test_type: 'ui',
      title: 'Checkout UI test was interrupted',
      body: '2 steps: 1 passed, 1 failed · The server stopped during the run, so it did not finish',
    });
  });

  it('view a going run as its result so far', () => {
    const { kinds } = fakes();
    const result = { test_id: 'fr_live', status: 'running' };
    const live = { result: () => result } as unknown as Parameters<typeof kinds.api.view>[0];
    expect(kinds.api.view(live)).toBe(result);
    expect(kinds.ui.view(live)).toBe(result);
  });
});
