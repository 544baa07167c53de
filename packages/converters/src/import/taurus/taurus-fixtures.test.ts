import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR as FIXTURES } from '../../../test/fixtures';
import { readTaurusScript } from './read-taurus';
import { TaurusScriptError } from './taurus-model';

/**
 * Every Taurus example of test-fixtures/taurus reads with the counts its README row gives (counted
 * independently of this reader), or is refused with named reasons. Each expectation quotes the README
 * facts it rests on, and the test checks the row still says so. Where the reader's count differs from
 * the row's, the row counts every scenario in the file and the comment says which ones do not run.
 */

const ROOT = join(FIXTURES, 'taurus');

interface Reads {
  readme: string[];
  methods: Record<string, number>;
  validations?: number;
  captures?: number;
  dataSources?: number;
  variables?: number;
  /** Warnings that must be there, by YAML path. */
  warned?: string[];
}
interface Refused {
  readme: string[];
  refused: string[];
}

const EXPECTED: Record<string, Reads | Refused> = {
  // 22 executions; only jmeter:1 and one of apiritif:2 send requests (the other runs a script file).
  'examples/all-executors.yml': {
    readme: ['executions 22 [', 'apiritif:2', 'jmeter:1', 'external scripts 13'],
    methods: { GET: 2 },
    validations: 0,
    captures: 0,
  },
  'examples/apiritif/apiritif_basic.yml': {
    readme: ['requests 6 [DELETE:1, GET:4, POST:1]', 'assert-jsonpath 2, extract-jsonpath 3'],
    methods: { DELETE: 1, GET: 4, POST: 1 },
    validations: 2,
    captures: 3,
  },
  'examples/apiritif/apiritif_load.yml': { readme: ['requests 1 [GET:1]'], methods: { GET: 1 } },
  'examples/blazemeter-demo/dsl-blazedemo.yml': {
    readme: ['requests 4 [GET:1, POST:3]', 'requests w/ body 3, w/ headers 4'],
    methods: { GET: 1, POST: 3 },
  },
  'examples/blazemeter-demo/gatling-dsl.yml': { readme: ['[gatling:1]'], refused: ['execution[0].executor'] },
  'examples/blazemeter-demo/module-passfail.yml': { readme: ['executions 0 [none]'], refused: ['execution'] },
  // requests 2: one in the jmeter scenario, one in the selenium scenario (with the assert).
  'examples/blazemeter-demo/multi-location-multi-script.yml': {
    readme: ['[jmeter:1, selenium:1]', 'requests 2 [GET:2]'],
    methods: { GET: 1 },
    warned: ['execution[1].executor', 'execution[0].locations'],
  },
  'examples/blazemeter-demo/selenium-dsl.yml': {
    readme: ['[selenium:1]'],
    refused: ['execution[0].executor'],
  },
  'examples/docker/test.yml': { readme: ['requests 1 [GET:1]', 'think-time 1'], methods: { GET: 1 } },
  'examples/executor-benchmark/scenario.yml': { readme: ['executions 0 [none]'], refused: ['execution'] },
  'examples/gatling/gatling-req.yml': { readme: ['[gatling:1]'], refused: ['execution[0].executor'] },
  'examples/jmeter/body-file.yml': {
    readme: ['requests 1 [POST:1]'],
    refused: ['scenarios.bfile.requests[0].body-file'],
  },
  'examples/jmeter/csv-usage.yml': {
    readme: ['requests 2 [GET:1, POST:1]', 'data-sources 2'],
    methods: { GET: 1, POST: 1 },
    dataSources: 2,
    warned: ['scenarios.csv-demo.data-sources[0]', 'scenarios.csv-demo.data-sources[1]'],
  },
  'examples/jmeter/default-address-trick.yml': {
    readme: ['requests 1 [GET:1]', 'include-scenario:1'],
    methods: { GET: 1 },
  },
  'examples/jmeter/existing.yml': { readme: ['external scripts 1'], refused: ['scenarios.existing.script'] },
  'examples/jmeter/external.yml': {
    readme: ['[external-results-loader:1]'],
    refused: ['execution[0].executor'],
  },
  'examples/jmeter/jmxvals.yml': { readme: ['external scripts 1'], refused: ['scenarios.jmxvals.script'] },
  // The one request is in a subroutine the main scenario includes twice.
  'examples/jmeter/prmctl.yml': {
    readme: ['requests 1 [GET:1]', 'action:2, include-scenario:2', 'variables 2'],
    methods: { GET: 2 },
    variables: 2,
    warned: ['scenarios.main.requests[0]', 'scenarios.main.requests[2]'],
  },
  'examples/jmeter/simple-assert.yml': {
    readme: ['requests 2 [GET:2]', 'assert 1'],
    methods: { GET: 2 },
    validations: 1,
  },
  // Its one extract-regexp reads the URL, which a capture cannot.
  'examples/jmeter/stepping.yml': {
    readme: ['requests 4 [GET:4]', 'extract-regexp 1'],
    methods: { GET: 4 },
    captures: 0,
    warned: ['scenarios.simple.requests[1].extract-regexp.key', 'execution[0].throughput'],
  },
  // Three executions each include the base scenario's one request; its data source is a JMeter property.
  'examples/jmeter/three.yml': {
    readme: ['executions 3', 'requests 1 [GET:1]', 'include-scenario:3', 'data-sources 1'],
    methods: { GET: 3 },
    dataSources: 0,
    warned: ['scenarios.base.data-sources[0]'],
  },
  'examples/proxy.yml': { readme: ['requests 1 [GET:1]'], methods: { GET: 1 } },
  'examples/selenium/har-screenshots.yml': { readme: ['[selenium:1]'], refused: ['execution[0].executor'] },
  'examples/selenium/sel-grid.yml': { readme: ['[selenium:1]'], refused: ['execution[0].executor'] },
  'examples/selenium/sel-requests.yml': { readme: ['[selenium:1]'], refused: ['execution[0].executor'] },
};

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
  });
}

function readmeRow(file: string): string {
  const row = readFileSync(join(FIXTURES, 'README.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| taurus/${file} |`));
  return row ?? '';
}

describe('the Taurus examples of test-fixtures', () => {
  const files = yamlFiles(ROOT).map((path) => relative(ROOT, path));

  it('has an expectation for every example', () => {
    expect(files.filter((file) => !(file in EXPECTED))).toEqual([]);
  });

  it.each(files)('%s reads with its README counts, or is refused with named reasons', (file) => {
    const expected = EXPECTED[file];
    if (expected === undefined) return;
    const row = readmeRow(file);
    for (const fact of expected.readme) expect(row, `README row of ${file}`).toContain(fact);
    const text = readFileSync(join(ROOT, file), 'utf8');
    if ('refused' in expected) {
      let error: unknown;
      try {
        readTaurusScript(text);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TaurusScriptError);
      const refusal = error as TaurusScriptError;
      for (const path of expected.refused) {
        const warning = refusal.warnings.find((w) => w.path === path);
        expect(warning, `${path} in ${JSON.stringify(refusal.warnings)}`).toMatchObject({
          effect: 'refused',
        });
        expect(warning?.line ?? 1).toBeGreaterThan(0);
        expect(refusal.message).toContain(path);
      }
      return;
    }
    const result = readTaurusScript(text);
    const methods: Record<string, number> = {};
    for (const api of result.apis) methods[api.method] = (methods[api.method] ?? 0) + 1;
    expect(methods).toEqual(expected.methods);
    const count = (list: readonly unknown[]) => list.length;
    if (expected.validations !== undefined) {
      expect(result.apis.map((a) => count(a.validations)).reduce((a, b) => a + b, 0)).toBe(
        expected.validations,
      );
    }
    if (expected.captures !== undefined) {
      expect(result.apis.map((a) => count(a.captures)).reduce((a, b) => a + b, 0)).toBe(expected.captures);
    }
    if (expected.dataSources !== undefined) expect(result.data_sources).toHaveLength(expected.dataSources);
    if (expected.variables !== undefined)
      expect(Object.keys(result.variables)).toHaveLength(expected.variables);
    for (const path of expected.warned ?? []) {
      expect(
        result.warnings.find((w) => w.path === path),
        `${path} in ${JSON.stringify(result.warnings)}`,
      ).toMatchObject({ effect: 'skipped' });
    }
    // Every warning names a path and its line; the read script is a plan the model accepts.
    for (const warning of result.warnings) {
      expect(warning.path).not.toBe('');
      expect(warning.line, warning.path).toBeGreaterThan(0);
    }
    // The script's own variables stay in its YAML (they are not the plan's Postman-style `variables`).
    const { variables: _scriptVariables, ...read } = result;
    FunctionalPlanSchema.parse({ ...read, source: 'script_input', script_content: text });
  });

  it('all-executors.yml warns once for each execution it cannot run: 22 less jmeter:1 and apiritif:2', () => {
    const result = readTaurusScript(readFileSync(join(ROOT, 'examples/all-executors.yml'), 'utf8'));
    expect(result.warnings.filter((w) => /^execution\[\d+\]\.executor$/.test(w.path))).toHaveLength(
      22 - 1 - 2,
    );
    expect(result.warnings.filter((w) => /^execution\[\d+\]\.scenario\.script$/.test(w.path))).toHaveLength(
      1,
    );
  });
});
