import { readFileSync } from 'node:fs';
import { type LoadProfileInput, LoadProfileSchema, PerfPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../test/fixtures';
import { planToTaurus } from '../../export/plan-to-taurus';
import { stairStages } from '../../export/profile-segments';
import { importFile } from '../import-file';
import { ImportError } from '../import-model';
import { taurusToPlan } from './taurus-to-plan';

/**
 * A Taurus YAML imported as a performance plan (docs/adr/0027-load-profiles.md "Importers"): the
 * generator's scripts come back as the profile they were written from, and the real Taurus examples
 * of test-fixtures/taurus (test-fixtures/README.md) carry the load their execution says.
 */

/** A file of Taurus's examples folder (test-fixtures/taurus/examples). */
const example = (path: string): string => readFileSync(`${FIXTURES_DIR}taurus/examples/${path}`, 'utf8');

const plan = (calls: number) =>
  PerfPlanSchema.parse({
    name: 'Round trip',
    tool: 'taurus',
    concurrent_users: 5,
    duration: 1,
    urls: Array.from({ length: calls }, (_, i) => ({ url: `http://127.0.0.1:8080/item/${i}` })),
  });

/** plan → Taurus YAML (planToTaurus) → import: the settings the import gives. */
function roundTrip(input: LoadProfileInput, calls = 2) {
  const profile = LoadProfileSchema.parse(input);
  const script = planToTaurus(plan(calls), { profile });
  const content = script.files[0]?.content ?? '';
  const read = taurusToPlan(content, 'plan.yml');
  expect(read.steps.map((s) => s.url)).toEqual(plan(calls).urls.map((u) => u.url));
  return { profile, settings: read.settings, script, content };
}

describe('plan → Taurus YAML → import gives back the profile Taurus can say', () => {
  it('a ramp of users and a hold', () => {
    const { profile, settings } = roundTrip({
      model: 'users',
      stages: [
        { duration: '30s', target: 50 },
        { duration: '2m', target: 50 },
      ],
    });
    expect(settings?.load_profile).toEqual(profile);
    expect(settings).toMatchObject({ concurrent_users: 50, duration: 3 });
  });

  it('a staircase of users is written as steps and read back as the same stairs', () => {
    const { profile, settings, script, content } = roundTrip({
      model: 'users',
      ...stairStages(40, 4, 15_000, 60_000, 'users'),
    });
    expect(content).toMatch(/steps: 4\n/);
    expect(content).toMatch(/ramp-up: 1m\n/);
    // The stairs are Taurus's own shape: nothing about the stages is lost.
    expect(script.warnings.filter((w) => w.field === 'load_profile.stages')).toEqual([]);
    expect(settings?.load_profile).toEqual(profile);
    expect(profile.start).toBe(10);
  });

  it('an arrival rate: throughput is rate × calls, the pool is concurrency', () => {
    const { profile, settings, content } = roundTrip(
      {
        model: 'arrival_rate',
        max_users: 20,
        stages: [
          { duration: '10s', target: 5 },
          { duration: '1m', target: 5 },
        ],
      },
      3,
    );
    expect(content).toMatch(/throughput: 15\n/);
    expect(content).toMatch(/concurrency: 20\n/);
    expect(settings?.load_profile).toEqual(profile);
    expect(settings?.concurrent_users).toBe(20);
  });

  it('a staircase of rates with steps', () => {
    const { profile, settings } = roundTrip({
      model: 'arrival_rate',
      max_users: 30,
      ...stairStages(7.5, 3, 20_000, 0, 'arrival_rate'),
    });
    expect(settings?.load_profile).toEqual(profile);
    expect(profile.stages.map((s) => s.target)).toEqual([2.5, 5, 5, 7.5, 7.5]);
  });

  it('a plan without a profile comes back as its users and whole minutes', () => {
    const script = planToTaurus({ ...plan(1), concurrent_users: 12, duration: 7 });
    const read = taurusToPlan(script.files[0]?.content ?? '', 'plan.yml');
    expect(read.settings).toEqual({ concurrent_users: 12, duration: 7, missing_files: [] });
  });

  it('a profile Taurus cannot say is read as what the script says, which its warning named', () => {
    const { settings, script } = roundTrip({
      model: 'users',
      stages: [
        { duration: '10s', target: 20 },
        { duration: '20s', target: 20 },
        { duration: '10s', target: 0 },
      ],
    });
    expect(script.warnings.map((w) => w.field)).toContain('load_profile.stages');
    expect(settings?.load_profile?.stages).toEqual([
      { duration: '10s', target: 20 },
      { duration: '30s', target: 20 },
    ]);
  });
});

describe('the real Taurus examples carry their load', () => {
  it('dsl-blazedemo.yml: concurrency 50, ramp-up 1m, hold-for 5m', () => {
    const read = importFile({
      name: 'dsl-blazedemo.yml',
      text: example('blazemeter-demo/dsl-blazedemo.yml'),
    });
    expect(read.info).toMatchObject({ format: 'taurus', requests: 4, methods: { GET: 1, POST: 3 } });
    expect(read.steps.map((s) => s.name)).toEqual(['Home', 'Reserve', 'Purchase', 'Confirmation']);
    expect(read.settings).toEqual({
      concurrent_users: 50,
      duration: 6,
      load_profile: LoadProfileSchema.parse({
        model: 'users',
        stages: [
          { duration: '1m', target: 50 },
          { duration: '5m', target: 50 },
        ],
      }),
      missing_files: [],
    });
  });

  it('docker-test.yml: 10 users over 30s held 1m, think-time 250ms on every call', () => {
    const read = importFile({ name: 'test.yml', text: example('docker/test.yml') });
    expect(read.settings?.load_profile?.stages).toEqual([
      { duration: '30s', target: 10 },
      { duration: '1m', target: 10 },
    ]);
    expect(read.steps.map((s) => s.thinkTime)).toEqual(['250ms']);
  });

  it('stepping.yml: throughput 25 over 4 calls in 5 steps over 2m, then 1m; the difference is said', () => {
    const read = importFile({ name: 'stepping.yml', text: example('jmeter/stepping.yml') });
    expect(read.steps).toHaveLength(4);
    expect(read.settings?.load_profile).toEqual(
      LoadProfileSchema.parse({
        model: 'arrival_rate',
        max_users: 50,
        ...stairStages(6.25, 5, 24_000, 60_000, 'arrival_rate'),
      }),
    );
    expect(read.settings?.concurrent_users).toBe(50);
    const throughput = read.warnings.find((w) => w.location.startsWith('execution[0].throughput'));
    expect(throughput?.message).toMatch(/caps the requests per second.*6\.25 iterations\/s.*dropped/);
    // Taurus's cloud locations are named as not carried.
    expect(read.warnings.map((w) => w.location)).toContain('execution[0].locations (line 11)');
  });

  it('apiritif_load.yml: a ramp-up with no hold-for ends with the ramp, and says so', () => {
    const read = importFile({ name: 'apiritif_load.yml', text: example('apiritif/apiritif_load.yml') });
    expect(read.settings?.load_profile?.stages).toEqual([{ duration: '20m', target: 30 }]);
    expect(read.warnings.map((w) => w.message)).toContain(
      'The execution sets no hold-for: the plan ends when its ramp-up does',
    );
  });

  it('three.yml: the first of three executions, the others named; iterations said', () => {
    const read = importFile({ name: 'three.yml', text: example('jmeter/three.yml') });
    expect(read.settings).toMatchObject({ concurrent_users: 1, duration: 1 });
    const skipped = read.warnings.filter((w) => /is skipped: a performance plan carries one/.test(w.message));
    expect(skipped.map((w) => w.location)).toEqual(['execution[1] (line 35)', 'execution[2] (line 37)']);
    expect(read.warnings.some((w) => /stops each user after 1 iteration/.test(w.message))).toBe(true);
  });

  it('csv-usage.yml: the data sources with the files the upload carries; a missing one is named', () => {
    const pages = example('jmeter/pages.csv');
    const read = importFile({
      name: 'csv-usage.yml',
      text: example('jmeter/csv-usage.yml'),
      files: { 'pages.csv': { name: 'pages.csv', text: pages } },
    });
    expect(read.settings).toMatchObject({
      concurrent_users: 1,
      duration: 1,
      data_sources: [
        { path: 'pages.csv', loop: true, share: 'all' },
        { path: 'logins.csv', loop: true, share: 'all' },
      ],
      data_files: { 'pages.csv': pages },
      missing_files: ['logins.csv'],
    });
    expect(read.settings?.load_profile).toBeUndefined();
    expect(read.warnings.map((w) => w.message)).toContain(
      "Attach logins.csv to the plan's test data before saving: the script reads rows from it, and the upload did not include it",
    );
    // The columns come from the rows: they need no value.
    expect(read.needsValue.map((v) => v.name)).not.toContain('page');
    // Saved without logins.csv, the plan is refused naming it.
    const saved = PerfPlanSchema.safeParse({
      name: 'csv',
      tool: 'taurus',
      urls: read.steps,
      concurrent_users: read.settings?.concurrent_users,
      duration: read.settings?.duration,
      data_sources: read.settings?.data_sources,
      data_files: read.settings?.data_files,
    });
    expect(saved.success).toBe(false);
    expect(saved.error?.issues.map((i) => i.message)).toContain(
      'Data source "logins.csv" names no file of the plan\'s data_files',
    );
    // With both files it saves.
    const both = importFile({
      name: 'csv-usage.yml',
      text: example('jmeter/csv-usage.yml'),
      files: {
        'pages.csv': { name: 'pages.csv', text: pages },
        'data/logins.csv': { name: 'data/logins.csv', text: example('jmeter/logins.csv') },
      },
    });
    expect(both.settings?.missing_files).toEqual([]);
    expect(
      PerfPlanSchema.safeParse({
        name: 'csv',
        tool: 'taurus',
        urls: both.steps,
        ...both.settings,
      }).success,
    ).toBe(true);
  });

  it('csv-usage.yml: a malformed CSV sent beside it is refused at import, naming the file and its line', () => {
    const logins = example('jmeter/logins.csv').split('\n');
    // The third line of the file loses a field; an unclosed quote on another upload.
    logins[2] = logins[2]!.split(',')[0]!;
    const upload = (text: string) => () =>
      importFile({
        name: 'csv-usage.yml',
        text: example('jmeter/csv-usage.yml'),
        files: {
          'pages.csv': { name: 'pages.csv', text: example('jmeter/pages.csv') },
          'logins.csv': { name: 'logins.csv', text },
        },
      });
    expect(upload(logins.join('\n'))).toThrow(
      /^csv-usage\.yml: the test data it reads is refused: Data file "logins\.csv" line 3: 1 field where the header has 2$/,
    );
    expect(upload('username,password\nann,"secret\nbob,pw\n')).toThrow(
      'csv-usage.yml: the test data it reads is refused: Data file "logins.csv" line 2: a quoted field is not closed',
    );
  });

  it('gatling-req.yml: an executor whose requests cannot run is refused, named', () => {
    expect(() => importFile({ name: 'gatling-req.yml', text: example('gatling/gatling-req.yml') })).toThrow(
      /gatling-req\.yml: this is a Taurus configuration, but nothing in this script can run as a performance plan: execution\[0\]\.executor/,
    );
  });

  it('a Taurus configuration sent as another format is refused naming both', () => {
    let error: unknown;
    try {
      importFile({ name: 'stepping.yml', text: example('jmeter/stepping.yml'), format: 'swagger' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe(
      'stepping.yml: this is a Taurus configuration, not an OpenAPI / Swagger document; choose the matching file type, or upload an OpenAPI / Swagger document',
    );
  });
});
