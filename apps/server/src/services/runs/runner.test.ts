import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerfPlanSchema, type PerfPlanInput } from '@aqa/plan';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ABORT_ON_BUILTIN_NOTE,
  ARRIVAL_RATE_ON_BUILTIN_NOTE,
  FLOWS_ON_BUILTIN_NOTE,
  SHARE_USER_ON_BUILTIN_NOTE,
  TAURUS_PROFILE_ON_BUILTIN_NOTE,
} from './builtin-only';
import type { Runner, RunnerHandle, ToolRunner } from './runner';
import { RunnerRegistry, toolRunNotes } from './runner';
import { ToolDetector } from './tool-detector';

const dir = mkdtempSync(join(tmpdir(), 'aqa-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notStarted = (): RunnerHandle => {
  throw new Error('choose() only picks a runner');
};
const builtin: Runner = { engine: 'builtin', start: notStarted };
const k6Adapter: ToolRunner = { engine: 'k6', start: notStarted };

describe('RunnerRegistry', () => {
  it('waits a bounded time for a tool still being checked, then uses the built-in engine saying so', async () => {
    // Knows its version; a run takes 2 s and sends nothing, so its check ends "not usable".
    const k6 = join(dir, 'slow-k6');
    writeFileSync(
      k6,
      '#!/bin/sh\nif [ "$1" = "version" ]; then echo "k6 v0.49.0 (go1.21.6, linux/amd64)"; exit 0; fi\nsleep 2\nexit 0\n',
    );
    chmodSync(k6, 0o755);
    const tools = new ToolDetector({ k6 }, { env: { PATH: process.env.PATH } });
    const registry = new RunnerRegistry(builtin, tools, 300);
    registry.register(k6Adapter);

    const asked = Date.now();
    const early = await registry.choose('k6');
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(early.runner).toBe(builtin);
    expect(early.note).toBe(
      'k6 0.49.0 is installed and is still being checked with a one-request test plan; this run used the built-in engine',
    );
    expect(await tools.detect('k6')).toMatchObject({ installed: true, usable: false });

    // Once the check has answered, runs get its reason.
    await tools.proveAll();
    const later = await registry.choose('k6');
    expect(later.runner).toBe(builtin);
    expect(later.note).toBe(
      'k6 0.49.0 is installed but sent no request when it ran a one-request test plan; this run used the built-in engine',
    );
  }, 30_000);
});

/** A plan with flows and test data (docs/adr/0027-load-profiles.md "Runs in the tools"). */
function plan(over: Partial<PerfPlanInput> = {}) {
  return PerfPlanSchema.parse({
    name: 'P',
    concurrent_users: 2,
    duration: 1,
    urls: [
      { url: 'http://127.0.0.1:1/a', flow: 'browse' },
      { url: 'http://127.0.0.1:1/b', flow: 'search' },
    ],
    flows: [
      { name: 'browse', weight: 3 },
      { name: 'search', weight: 1 },
    ],
    data_files: { 'ids.csv': 'id\n1\n2' },
    data_sources: [{ path: 'ids.csv', loop: false }],
    ...over,
  });
}

describe('RunnerRegistry#choose with a profile, flows or test data', () => {
  // No tool is installed: a plan its tool would run falls back saying so; one no tool runs names why.
  const missing = new ToolDetector(
    {
      jmeter: join(dir, 'none'),
      k6: join(dir, 'none'),
      locust: join(dir, 'none'),
      taurus: join(dir, 'none'),
    },
    { env: { PATH: '' } },
  );
  const registry = new RunnerRegistry(builtin, missing, 0);
  const closed = { model: 'users' as const, stages: [{ duration: '4s', target: 4 }] };

  it('hands flows, shared test data and a closed profile to JMeter, k6 and Locust', async () => {
    for (const tool of ['jmeter', 'k6', 'locust'] as const) {
      const choice = await registry.choose(tool, plan({ load_profile: closed }));
      expect(choice.runner).toBe(builtin);
      expect(choice.note).toMatch(/^ran with the built-in engine: .* is not installed on this server$/);
    }
  });

  it('keeps in the built-in engine what the tools do not run, saying why', async () => {
    const open = { model: 'arrival_rate' as const, stages: [{ duration: '4s', target: 4 }] };
    expect((await registry.choose('locust', plan({ load_profile: open }))).note).toBe(
      ARRIVAL_RATE_ON_BUILTIN_NOTE,
    );
    const perUser = [{ path: 'ids.csv', share: 'user' as const }];
    expect((await registry.choose('k6', plan({ data_sources: perUser }))).note).toBe(
      SHARE_USER_ON_BUILTIN_NOTE,
    );
    expect((await registry.choose('jmeter', plan({ data_sources: perUser }))).note).toMatch(/not installed/);
    expect((await registry.choose('taurus', plan())).note).toBe(FLOWS_ON_BUILTIN_NOTE);
    const plain = { flows: undefined, urls: [{ url: 'http://127.0.0.1:1/a' }] };
    const upAndDown = {
      model: 'users' as const,
      stages: [
        { duration: '4s', target: 4 },
        { duration: '2s', target: 0 },
      ],
    };
    expect((await registry.choose('taurus', plan({ ...plain, load_profile: upAndDown }))).note).toBe(
      TAURUS_PROFILE_ON_BUILTIN_NOTE,
    );
    expect((await registry.choose('taurus', plan({ ...plain, load_profile: closed }))).note).toMatch(
      /not installed/,
    );
    expect((await registry.choose('jmeter', plan({ abort_thresholds: ['p95<500'] }))).note).toBe(
      ABORT_ON_BUILTIN_NOTE,
    );
  });

  it("says in the tool run's note how the flows were counted and that data running out is not reported", () => {
    expect(toolRunNotes(plan(), 'Locust')).toEqual([
      "Locust reports no iterations per flow: each flow's iterations are the requests of its first call",
      'Locust ends a user at the end of test data that does not loop without reporting it, so this result does not say whether the data ran out',
    ]);
    const sometimes = plan({
      urls: [
        { url: 'http://127.0.0.1:1/a', flow: 'browse', transactionRate: 50 },
        { url: 'http://127.0.0.1:1/b', flow: 'search' },
      ],
      data_sources: [{ path: 'ids.csv', loop: true }],
    });
    expect(toolRunNotes(sometimes, 'Apache JMeter')).toEqual([
      "Apache JMeter reports no iterations per flow, and a flow's first call is not sent in every iteration (transactionRate), so this result has no per-flow iterations",
    ]);
    expect(
      toolRunNotes(plan({ flows: undefined, urls: [{ url: 'http://127.0.0.1:1/a' }] }), 'Locust'),
    ).toHaveLength(1);
  });
});
