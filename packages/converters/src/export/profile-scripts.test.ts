import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LoadProfileSchema,
  PerfPlanSchema,
  type LoadProfileInput,
  type PerfPlan,
  profilePoints,
  targetAt,
} from '@aqa/plan';
import { runK6Script, typeCheckK6 } from '../../test/k6-harness';
import { Target, startTargetServer } from '../../test/target';
import {
  LOCUST_PYTHON,
  jmeterMissing,
  locustMissing,
  readJtl,
  removeDir,
  runCommand,
  runJmeter,
  workDir,
} from '../../test/tools';
import { parseXml } from '../../test/xml-query';
import { generateScript } from './generate-script';
import { JMETER_ELEMENTS } from './jmeter-versions';
import { planToJmx } from './plan-to-jmx';
import { planToLocust } from './plan-to-locust';
import { rampHold, rateSteps, userBlocks } from './profile-segments';

/** Load profiles in the generated scripts (docs/adr/0027-load-profiles.md "7. Where a profile goes"). */

const BASE = 'http://127.0.0.1:8080';
const profile = (input: LoadProfileInput) => LoadProfileSchema.parse(input);

/** 0 → 10 users over 30 s, held 1 min, down to 0 over 10 s. */
const CLOSED = profile({
  model: 'users',
  stages: [
    { duration: '30s', target: 10 },
    { duration: '1m', target: 10 },
    { duration: '10s', target: 0 },
  ],
});
/** 0 → 20 iterations/s over 10 s, held 30 s, from a pool of 25. */
const OPEN = profile({
  model: 'arrival_rate',
  max_users: 25,
  graceful_stop: '5s',
  stages: [
    { duration: '10s', target: 20 },
    { duration: '30s', target: 20 },
  ],
});

function echoPlan(base: string, thinkTime = '0'): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Profile demo',
    concurrent_users: 1,
    duration: 1,
    urls: [{ name: 'Echo', method: 'GET', url: `${base}/api/echo`, thinkTime }],
  });
}

const EXT = { jmeter: 'jmx', k6: 'js', locust: 'py', taurus: 'yml' } as const;

describe('the profile arithmetic the generators share', () => {
  it('cuts the closed ramp into users that join one by one and leave one a second, youngest first', () => {
    expect(userBlocks(CLOSED)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({
        users: 1,
        firstStartMs: (i + 1) * 3000,
        spacingMs: 0,
        // User 10 leaves as the ramp down starts (90 s), user 1 a second before the end.
        endMs: 99_000 - i * 1000,
      })),
    );
  });

  it('keeps users that join on one ramp and leave together as one block', () => {
    const upHold = profile({
      model: 'users',
      start: 2,
      stages: [
        { duration: '4s', target: 6 },
        { duration: '3s', target: 6 },
      ],
    });
    expect(userBlocks(upHold)).toEqual([
      { users: 2, firstStartMs: 0, spacingMs: 0, endMs: 7000 },
      { users: 4, firstStartMs: 1000, spacingMs: 1000, endMs: 7000 },
    ]);
  });

  it('cuts an arrival-rate ramp into steps of a second that start as many iterations as the line', () => {
    const steps = rateSteps(OPEN);
    expect(steps).toHaveLength(11);
    expect(steps.slice(0, 3)).toEqual([
      { fromMs: 0, toMs: 1000, rate: 1 },
      { fromMs: 1000, toMs: 2000, rate: 3 },
      { fromMs: 2000, toMs: 3000, rate: 5 },
    ]);
    expect(steps.at(-1)).toEqual({ fromMs: 10_000, toMs: 40_000, rate: 20 });
    const iterations = steps.reduce((sum, s) => sum + (s.rate * (s.toMs - s.fromMs)) / 1000, 0);
    expect(iterations).toBe(100 + 600);
  });

  it('recognises ramp + hold (+ ramp down) and nothing else', () => {
    expect(rampHold(CLOSED)).toEqual({ peak: 10, rampUpMs: 30_000, holdMs: 60_000, rampDownMs: 10_000 });
    const twoPeaks = profile({
      model: 'users',
      stages: [
        { duration: '5s', target: 5 },
        { duration: '5s', target: 2 },
        { duration: '5s', target: 5 },
      ],
    });
    expect(rampHold(twoPeaks)).toBeUndefined();
  });
});

describe('generated scripts with a load profile', () => {
  it.each(['jmeter', 'k6', 'locust', 'taurus'] as const)(
    'writes the closed and open profile for %s',
    async (tool) => {
      for (const [name, p] of [
        ['profile-closed', CLOSED],
        ['profile-open', OPEN],
      ] as const) {
        const { files } = generateScript(echoPlan(BASE), tool, { toolVersion: '2.13', profile: p });
        await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/${tool}/${name}.${EXT[tool]}`);
      }
    },
  );

  it('writes what it wrote before when no profile is given', () => {
    for (const tool of ['jmeter', 'k6', 'locust', 'taurus'] as const) {
      expect(generateScript(echoPlan(BASE), tool, { profile: undefined })).toEqual(
        generateScript(echoPlan(BASE), tool),
      );
    }
  });

  it('gives JMeter one scheduled thread group per block of users, with elements 2.13 loads', () => {
    const content = planToJmx(echoPlan(BASE), { jmeterVersion: '2.13', profile: CLOSED }).files[0]?.content;
    const x = parseXml(content ?? '');
    expect(x.count('//ThreadGroup')).toBe(10);
    const firstGroup = (name: string) => x.texts(`//ThreadGroup[1]/*[@name='${name}']`)[0];
    expect(firstGroup('ThreadGroup.num_threads')).toBe('1');
    expect(firstGroup('ThreadGroup.delay')).toBe('3');
    expect(firstGroup('ThreadGroup.duration')).toBe('96');
    expect(firstGroup('ThreadGroup.delayedStart')).toBe('true');
    expect(content).not.toContain('aqa.users');
    const known = new Set(JMETER_ELEMENTS.filter((e) => e.since === '2.13').map((e) => e.testclass));
    const open = planToJmx(echoPlan(BASE), { jmeterVersion: '2.13', profile: OPEN }).files[0]?.content ?? '';
    for (const [, testclass] of open.matchAll(/testclass="([^"]+)"/g)) expect(known).toContain(testclass);
    expect(open).toContain('<intProp name="calcMode">4</intProp>');
    // 20 iterations/s is 1200 a minute, the unit of the Constant Throughput Timer.
    expect(open).toContain('<value>1200</value>');
  });

  it('writes k6 scenarios that type-check against @types/k6 and that k6 reads as the stages', () => {
    for (const p of [CLOSED, OPEN]) {
      const script = generateScript(echoPlan(BASE), 'k6', { profile: p }).files[0]?.content ?? '';
      expect(typeCheckK6(script)).toEqual([]);
    }
    const script = generateScript(echoPlan(BASE), 'k6', { profile: OPEN }).files[0]?.content ?? '';
    const run = runK6Script(script, new Target(), { vus: 1, iterations: 1 });
    expect(run.options).toEqual({
      scenarios: {
        plan: {
          executor: 'ramping-arrival-rate',
          startRate: 0,
          timeUnit: '1s',
          preAllocatedVUs: 25,
          maxVUs: 25,
          gracefulStop: '5s',
          stages: [
            { duration: '10s', target: 20 },
            { duration: '30s', target: 20 },
          ],
        },
      },
      maxRedirects: 0,
    });
  });

  it('gives k6 the executor of the model, without vus and duration', () => {
    const closed = generateScript(echoPlan(BASE), 'k6', { profile: CLOSED }).files[0]?.content ?? '';
    expect(closed).toContain('executor: "ramping-vus"');
    expect(closed).toContain('gracefulRampDown: "10s"');
    expect(closed).not.toMatch(/^\s+vus:|^\s+duration: "60s"/m);
    const decimals = profile({ model: 'arrival_rate', stages: [{ duration: '10s', target: 0.25 }] });
    const open = generateScript(echoPlan(BASE), 'k6', { profile: decimals }).files[0]?.content ?? '';
    // k6 takes whole rates: 0.25/s is 25 per 100 s.
    expect(open).toContain('timeUnit: "100s"');
    expect(open).toContain('{ duration: "10s", target: 25 }');
    expect(open).toContain('maxVUs: 10');
  });

  it('names what JMeter, Taurus and Locust cannot say', () => {
    expect(generateScript(echoPlan(BASE), 'jmeter', { toolVersion: '2.13', profile: OPEN }).warnings).toEqual(
      [
        {
          field: 'load_profile.graceful_stop',
          message:
            "JMeter has no graceful stop: a user that leaves stops after its current request, not after its iteration within the profile's graceful stop",
        },
        {
          field: 'load_profile.model',
          message:
            "JMeter 2.13 has no arrival-rate thread group: a Constant Throughput Timer paces each step's threads (at most 25), ramps in steps of a second; an iteration that finds every thread busy starts late instead of being dropped and counted as the engine does",
        },
      ],
    );
    const halfSecond = profile({ model: 'users', stages: [{ duration: '1500ms', target: 2 }] });
    expect(generateScript(echoPlan(BASE), 'jmeter', { profile: halfSecond }).warnings).toContainEqual({
      field: 'load_profile.stages',
      message:
        'JMeter reads delays, ramp-ups and durations in whole seconds: the stages that do not end on a whole second are rounded to one',
    });
    const taurus = generateScript(echoPlan(BASE), 'taurus', { profile: CLOSED });
    expect(taurus.warnings).toEqual([
      {
        field: 'load_profile.stages',
        message: 'Taurus has no ramp-down: the last 10s hold 10 users instead of going down to 0',
      },
      {
        field: 'load_profile.graceful_stop',
        message:
          "Taurus has no graceful stop: at the end JMeter stops each user after its current request, not after its iteration within the profile's graceful stop",
      },
    ]);
    const twoPeaks = profile({
      model: 'users',
      stages: [
        { duration: '5s', target: 5 },
        { duration: '5s', target: 2 },
        { duration: '5s', target: 5 },
      ],
    });
    expect(generateScript(echoPlan(BASE), 'taurus', { profile: twoPeaks }).warnings).toEqual([
      {
        field: 'load_profile.stages',
        message:
          'Taurus says a load as one ramp-up and a hold: the stages are written as up to 5 over 5s, then held for 10s; the other rises and falls of the profile are not in the script',
      },
      {
        field: 'load_profile.graceful_stop',
        message:
          "Taurus has no graceful stop: at the end JMeter stops each user after its current request, not after its iteration within the profile's graceful stop",
      },
    ]);
    expect(generateScript(echoPlan(BASE), 'locust', { profile: OPEN }).warnings).toEqual([
      {
        field: 'load_profile.model',
        message:
          'Locust has no arrival-rate executor: a pool of 25 users takes the iterations of the schedule in turn, each waiting until its iteration is due; when every user is busy an iteration starts late instead of being dropped and counted as the engine does',
      },
    ]);
  });
});

/** 0 → 4 users over 4 s, held 3 s: the closed profile the real tools run. */
const SHORT_CLOSED = profile({
  model: 'users',
  graceful_stop: '1s',
  stages: [
    { duration: '4s', target: 4 },
    { duration: '3s', target: 4 },
  ],
});

/** A local target for a block of real-tool runs, started unless the tool is missing (then said once). */
function targetUnless(missing: string | undefined, runs: string) {
  let server: Awaited<ReturnType<typeof startTargetServer>> | undefined;
  beforeAll(async () => {
    if (missing) console.warn(`Skipping ${runs}: ${missing}`);
    else server = await startTargetServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the target runs only while the tool is installed');
    return server;
  };
}

/** 20 iterations per second for 6 s: 120 planned. */
const FLAT_20 = profile({ model: 'arrival_rate', start: 20, stages: [{ duration: '6s', target: 20 }] });

/** Iterations the target received, against the 120 of FLAT_20. */
function expectFlat20(sent: number) {
  expect(Math.abs(sent - 120) / 120, `${sent} iterations, 120 planned`).toBeLessThanOrEqual(0.1);
}

describe('a closed and an open profile in JMeter 2.13 (non-GUI)', { timeout: 60_000 }, () => {
  const missing = jmeterMissing();
  const target = targetUnless(missing, 'the JMeter profile runs');

  async function run(p: ReturnType<typeof profile>) {
    target().target.requests.length = 0;
    const content = planToJmx(echoPlan(target().base, '0.1'), { jmeterVersion: '2.13', profile: p }).files[0];
    const dir = workDir({ 'plan.jmx': content?.content ?? '' });
    const result = await runJmeter(dir, 'plan.jmx', {
      properties: { 'jmeter.save.saveservice.thread_counts': 'true' },
    });
    const jtl = readFileSync(join(dir, 'out.jtl'), 'utf8');
    const log = readFileSync(join(dir, 'jmeter.log'), 'utf8');
    removeDir(dir);
    expect(log, 'jmeter.log').not.toMatch(/ERROR/);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    return readJtl(jtl);
  }

  it.skipIf(missing)('follows the planned users within one thread, second by second', async () => {
    const rows = await run(SHORT_CLOSED);
    const points = profilePoints(SHORT_CLOSED);
    const stamps = rows.map((r) => Number(r.fields.timeStamp));
    // The first user is planned at 1 s (the line reaches 1 user then): the first sample marks it.
    const zero = Math.min(...stamps) - 1000;
    const off: string[] = [];
    for (const row of rows) {
      const atMs = Number(row.fields.timeStamp) - zero;
      const planned = Math.floor(targetAt(points, atMs) + 1e-9);
      const active = Number(row.fields.allThreads);
      // Judged from 2 s to 1 s before the end (7 s): the zero is read from the first sample, which a busy
      // machine's JVM may send late, and then the threads leaving at the end look early by as much.
      if (atMs >= 2000 && atMs < 6000 && Math.abs(active - planned) > 1)
        off.push(`${atMs} ms: ${active} threads, ${planned} planned`);
    }
    expect(off).toEqual([]);
    expect(Math.max(...rows.map((r) => Number(r.fields.allThreads)))).toBe(4);
    // Every user leaves with the profile's end (7 s), after its current sample.
    expect(Math.max(...stamps) - zero).toBeLessThan(7000 + 500);
    expect(rows.every((r) => r.success)).toBe(true);
  });

  it.skipIf(missing)('starts the planned iterations at 20 per second within 10 %', async () => {
    await run(FLAT_20);
    expectFlat20(target().target.count('GET', '/api/echo'));
  });
});

/** Rows of Locust's stats history CSV: the aggregated row of each second with its user count. */
function userCounts(csv: string): { atS: number; users: number }[] {
  const [header = '', ...lines] = csv.trim().split('\n');
  const names = header.split(',').map((h) => h.replace(/"/g, ''));
  const rows = lines
    .map((line) => line.split(',').map((c) => c.replace(/"/g, '')))
    .filter((cells) => cells[names.indexOf('Name')] === 'Aggregated');
  const stamp = (cells: string[]) => Number(cells[names.indexOf('Timestamp')]);
  const first = rows[0] ? stamp(rows[0]) : 0;
  return rows.map((cells) => ({
    atS: stamp(cells) - first,
    users: Number(cells[names.indexOf('User Count')]),
  }));
}

describe('a closed and an open profile in Locust 2.12 (headless)', { timeout: 60_000 }, () => {
  const missing = locustMissing();
  const target = targetUnless(missing, 'the Locust profile runs');

  async function runLocustProfile(p: ReturnType<typeof profile>) {
    target().target.requests.length = 0;
    const file = planToLocust(echoPlan(target().base, '0.1'), { profile: p }).files[0];
    const dir = workDir({ 'plan.py': file?.content ?? '' });
    const result = await runCommand(
      LOCUST_PYTHON,
      [
        '-c',
        // Locust flushes its CSV files every 10 s; a run of 7 s needs every second's row on disk.
        "import sys, locust.stats; locust.stats.CSV_STATS_FLUSH_INTERVAL_SEC = 0; sys.argv[0] = 'locust'; from locust.main import main; main()",
        ...['-f', 'plan.py', '--headless', '--host', target().base, '--csv', 'out', '--only-summary'],
      ],
      { cwd: dir, timeoutMs: 30_000 },
    );
    const history = readFileSync(join(dir, 'out_stats_history.csv'), 'utf8');
    removeDir(dir);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    return history;
  }

  it.skipIf(missing)('follows the planned users within one user, second by second', async () => {
    const history = await runLocustProfile(SHORT_CLOSED);
    const points = profilePoints(SHORT_CLOSED);
    const counts = userCounts(history);
    expect(counts.length).toBeGreaterThanOrEqual(6);
    const off = counts
      .filter(({ atS }) => atS >= 1 && atS < 7)
      // Locust's shape ticks once a second and its stats row may come a second late (docs/adr/0027-load-profiles.md,
      // "7. Where a profile goes"): a second is judged against the line at its time or a second before.
      .filter(({ atS, users }) =>
        [atS, atS - 1].every((t) => Math.abs(users - Math.floor(targetAt(points, t * 1000))) > 1),
      )
      .map(({ atS, users }) => `${atS} s: ${users} users`);
    expect(off).toEqual([]);
    expect(Math.max(...counts.map((c) => c.users))).toBe(4);
    expect(target().target.count('GET', '/api/echo')).toBeGreaterThan(50);
  });

  it.skipIf(missing)('starts the planned iterations at 20 per second within 10 %', async () => {
    await runLocustProfile(FLAT_20);
    expectFlat20(target().target.count('GET', '/api/echo'));
  });
});
