import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateScript } from '@aqa/converters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanCompileError } from '../executor/compile';
import { TestTarget, testPlan, type TestEntry } from '../testing/target';
import { LOCUST_WRAPPER } from './locust-files';
import { startToolRun } from './run-tool';
import { observe, stepSum, TEST_ENV, toolForTests } from './test-helpers';
import { TOOL_ENV, TOOL_NAMES, ToolRunError, type ToolRunResult } from './types';

/*
 * What every adapter of an external tool must do (docs/design.md §4 "External tools",
 * docs/adr/0004-built-in-engine-and-external-tools.md), proven once for each tool against the one
 * installed here: Debian's JMeter 2.13 through the engine's launcher, and Debian's python3-locust. A tool
 * that is absent skips its live cases and says why (test-helpers.ts). An adapter
 *   - writes its input: the script @aqa/converters generates for the tool, as generated, in its folder;
 *   - refuses in words what it cannot run, before anything starts: a command that is not there (naming
 *     the variable that sets it), a plan the tool at its version cannot run (naming the plan's field);
 *   - reports intervals: a snapshot a second while the tool runs, with every step;
 *   - counts: its totals, per step and per second, equal what the target received;
 *   - stops: stop() ends the tool early and resolves with the partial result.
 */

interface AdapterCase {
  tool: 'jmeter' | 'locust';
  title: string;
  /** What the handle says of its figures before the run (run-tool.ts STATIC_INFO). */
  exact: boolean;
  source: string;
  /** How stop() asks the tool to end, for the test's title. */
  stopsBy: string;
  /** Files the adapter writes beside the generated script. */
  ownFiles: string[];
  /** Plans the tool at `version` cannot run, and the words that refuse them. */
  cannotRun: { version: string; entry: TestEntry; words: RegExp }[];
  /** What else its result says about how it ran. */
  ranAs?: (result: ToolRunResult) => void;
}

const CASES: AdapterCase[] = [
  {
    tool: 'jmeter',
    title: "JMeter adapter (live, Debian's JMeter 2.13 through the engine's launcher)",
    exact: true,
    source: 'jmeter jtl',
    stopsBy: 'its Shutdown message',
    ownFiles: [],
    cannotRun: [
      {
        version: '2.13',
        entry: { url: 'http://127.0.0.1:9/a', extractType: 'json', extractName: 'id', extractValue: '$..id' },
        words: /^urls\[0\]\.extractValue: JMeter 2\.13 cannot read \$\.\.id: it has no JSON Extractor/,
      },
    ],
    ranAs: (result) => {
      // With JMETER_CMD unset, Debian's JMeter ran through the engine's own launcher.
      if (!process.env.JMETER_CMD) expect(result.command).toMatch(/ DebianJMeter -n -t /);
    },
  },
  {
    tool: 'locust',
    title: 'Locust adapter (live, Debian Locust 2.12)',
    exact: false,
    source: 'locust stats history',
    stopsBy: 'SIGTERM: users stop, stats are written',
    ownFiles: [LOCUST_WRAPPER],
    // Every plan the model accepts runs in Locust: what the tool cannot run is refused only when absent.
    cannotRun: [],
  },
];

const installed = {
  jmeter: await toolForTests('jmeter'),
  locust: await toolForTests('locust'),
};

describe.each(CASES)('$title', (c) => {
  const skip = installed[c.tool].skip;
  const target = new TestTarget();
  const workDirs = mkdtempSync(join(tmpdir(), `aqa-contract-${c.tool}-`));
  beforeAll(async () => {
    await target.start();
    target.route = (req, res) => {
      // /b fails with 500 one time in four, so failures are data too.
      const fail = req.path === '/b' && (target.byPath.get('/b') ?? 0) % 4 === 0;
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(fail ? 'no' : 'ok');
    };
  });
  afterAll(async () => {
    await target.close();
    rmSync(workDirs, { recursive: true, force: true });
  });

  const plan = () =>
    testPlan(
      [
        // A short think time keeps the load light: these tests share 2 cores with the rest of the suite.
        { url: `${target.origin}/a`, name: 'Alpha', thinkTime: '20ms' },
        { url: `${target.origin}/b`, method: 'POST', payload: '{"x":1}', thinkTime: '20ms' },
      ],
      { concurrent_users: 2, duration: 1 },
    );

  it.skipIf(skip)(
    'runs a 2-step plan: its script written as generated, per-second snapshots while it runs, per-step rows, totals equal to what the target counted',
    async () => {
      target.reset();
      const workDir = join(workDirs, 'run');
      const started = Date.now();
      const run = startToolRun(plan(), c.tool, { env: TEST_ENV, durationSeconds: 5, workDir });
      expect(run.exact).toBe(c.exact);
      expect(run.source).toBe(c.source);
      expect(run.shards).toEqual([2]);
      expect(run.workDir).toBe(workDir);
      const o = await observe(run);
      const { result, snapshots } = o;

      // Its input: the generated script, as generated, and the adapter's own files.
      for (const file of generateScript(plan(), c.tool, { forRun: true }).files)
        expect(readFileSync(join(workDir, file.name), 'utf8')).toBe(file.content);
      for (const name of c.ownFiles) expect(existsSync(join(workDir, name))).toBe(true);

      expect(result.status).toBe('completed');
      expect(result.tool).toBe(c.tool);
      expect(result.exact).toBe(c.exact);
      expect(result.exitCode).toBe(0);
      c.ranAs?.(result);
      // Counts are exact whatever the tool keeps of latencies: every request the target received.
      expect(result.summary.total_requests).toBeGreaterThan(10);
      expect(result.summary.total_requests).toBe(target.count);
      expect(result.api_results.map((r) => r.total_requests)).toEqual([
        target.byPath.get('/a') ?? 0,
        target.byPath.get('/b') ?? 0,
      ]);
      expect(result.api_results[1]!.failed_requests).toBeGreaterThan(0);
      expect(result.api_results[1]!.errors.http_status?.count).toBe(result.api_results[1]!.failed_requests);
      expect(result.summary.failed_requests).toBe(result.api_results[1]!.failed_requests);
      expect(result.summary.percentile_95).toBeGreaterThan(0);
      expect(result.summary.max_response_time).toBeGreaterThanOrEqual(result.summary.percentile_99);
      expect(result.histogram.c.reduce((a, b) => a + b, 0)).toBe(result.summary.total_requests);

      // Per second, while it ran: several snapshots, the first well before the tool ended.
      expect(snapshots.length).toBeGreaterThanOrEqual(2);
      expect(o.arrivals[0]! - started).toBeLessThan(o.resolvedAt - started - 1000);
      snapshots.forEach((s, i) => {
        expect(s.second).toBe(i + 1);
        expect(s.steps.map((x) => x.label)).toEqual([`GET ${target.origin}/a`, `POST ${target.origin}/b`]);
      });
      expect(snapshots.reduce((a, s) => a + s.requests, 0)).toBe(result.summary.total_requests);
      expect(stepSum(snapshots, 0, 'requests')).toBe(result.api_results[0]!.total_requests);
      expect(stepSum(snapshots, 1, 'failures')).toBe(result.api_results[1]!.failed_requests);
      expect(snapshots.at(-1)!.totals.requests).toBe(target.count);
      expect(result.series).toHaveLength(snapshots.length);
    },
    60_000,
  );

  it.skipIf(skip)(
    `stop() ends the tool early (${c.stopsBy}) and resolves with the partial result`,
    async () => {
      target.reset();
      const run = startToolRun(plan(), c.tool, { env: TEST_ENV, durationSeconds: 60 });
      let stopAsked = 0;
      let stopped: Promise<void> | undefined;
      const o = await observe(run, (s) => {
        if (s.requests > 0 && !stopped) {
          stopAsked = Date.now();
          stopped = run.stop();
        }
      });
      await stopped;
      expect(Date.now() - stopAsked).toBeLessThan(8000);
      expect(o.result.status).toBe('stopped');
      expect(o.result.summary.total_requests).toBeGreaterThan(0);
      expect(o.result.summary.total_requests).toBe(target.count);
      expect(o.result.summary.test_duration).toBeLessThan(15);
    },
    60_000,
  );

  it('refuses in words to run without the tool, naming the variable that sets its command', async () => {
    target.reset();
    const missing = `/nonexistent/${c.tool}`;
    const run = startToolRun(plan(), c.tool, { env: { ...TEST_ENV, [TOOL_ENV[c.tool]]: missing } });
    const error = (await run.result.catch((e: unknown) => e)) as ToolRunError;
    expect(error).toBeInstanceOf(ToolRunError);
    expect(error.kind).toBe('not_installed');
    expect(error.message).toBe(
      `${TOOL_NAMES[c.tool]} is not installed: ${missing} was not found (set ${TOOL_ENV[c.tool]} to the command that runs it)`,
    );
    const seen = [];
    for await (const s of run.snapshots) seen.push(s);
    expect(seen).toEqual([]);
    expect(target.count).toBe(0);
  });

  for (const refused of c.cannotRun) {
    it(`refuses in words, before it starts, a plan ${c.tool} ${refused.version} cannot run`, () => {
      const run = () =>
        startToolRun(testPlan([refused.entry]), c.tool, { env: TEST_ENV, toolVersion: refused.version });
      expect(run).toThrow(PlanCompileError);
      expect(run).toThrow(refused.words);
    });
  }
});
