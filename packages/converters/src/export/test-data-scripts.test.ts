import { describe, expect, it } from 'vitest';
import { PerfPlanSchema, type PerfPlan, type PerfPlanInput } from '@aqa/plan';
import { typeCheckK6 } from '../../test/k6-harness';
import { startTargetServer } from '../../test/target';
import {
  LOCUST_PYTHON,
  jmeterMissing,
  locustMissing,
  removeDir,
  runCommand,
  runJmeter,
  workDir,
} from '../../test/tools';
import { generateScript } from './generate-script';

/** A plan's test data in the generated scripts (docs/adr/0027-load-profiles.md "Test data"). */

function dataPlan(base: string, source: PerfPlanInput['data_sources'] = [{ path: 'users.csv' }]): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Data demo',
    concurrent_users: 2,
    duration: 1,
    urls: [
      {
        name: 'Echo',
        method: 'POST',
        url: `${base}/api/echo/{{id}}`,
        headers: [{ name: 'X-Name', value: '{{full-name}}' }],
        payload: '{"id":"{{id}}"}',
        thinkTime: '0',
      },
    ],
    data_files: {
      'users.csv': `id;full-name\n${Array.from({ length: 20 }, (_, i) => `${i + 1};"Ada, ${i + 1}"`).join('\n')}\n`,
    },
    data_sources: source,
  });
}

const BASE = 'http://127.0.0.1:8080';
const ROWS = Array.from({ length: 20 }, (_, i) => `${i + 1},"Ada, ${i + 1}"`).join('\n') + '\n';

describe('generated scripts with test data', () => {
  it.each(['jmeter', 'k6', 'locust', 'taurus'] as const)(
    '%s with dataFiles: false is the same script without the files beside it, which its warning still names',
    (tool) => {
      const plan = dataPlan(BASE, [{ path: 'users.csv', random_order: true }]);
      const whole = generateScript(plan, tool);
      const alone = generateScript(plan, tool, { dataFiles: false });
      expect(whole.files).toHaveLength(2);
      expect(alone.files).toEqual([whole.files[0]]);
      expect(alone.warnings).toEqual(whole.warnings);
      expect(alone.warnings.map((w) => w.field)).toContain('data_sources[0]');
    },
  );

  it('JMeter: a CSV Data Set Config at the test plan level, the rows beside the script, the columns as ${variables}', () => {
    const script = generateScript(
      dataPlan(BASE, [{ path: 'users.csv', loop: false, share: 'user' }]),
      'jmeter',
      {
        toolVersion: '2.13',
      },
    );
    expect(script.files.map((f) => f.name)).toEqual([
      'testplan_jmeter_Data_demo.jmx',
      'aqa_data_1_users.csv',
    ]);
    expect(script.files[1]!.content).toBe(ROWS);
    const jmx = script.files[0]!.content;
    expect(jmx).toContain('<stringProp name="filename">aqa_data_1_users.csv</stringProp>');
    expect(jmx).toContain('<stringProp name="variableNames">id,full_name</stringProp>');
    expect(jmx).toContain('<stringProp name="shareMode">shareMode.thread</stringProp>');
    expect(jmx).toContain('<boolProp name="recycle">false</boolProp>');
    expect(jmx).toContain('<boolProp name="stopThread">true</boolProp>');
    expect(jmx).toContain('/api/echo/${id}');
    expect(jmx).toContain('${full_name}');
    expect(script.warnings).toEqual([
      {
        field: 'data_sources[0]',
        message:
          'The script reads the rows of "users.csv" from aqa_data_1_users.csv beside it (no header line); a downloaded script needs that file put beside it',
      },
    ]);
  });

  it('k6: a SharedArray of the rows as JSON, the test-wide iteration index, the test ends when the data does', () => {
    const script = generateScript(dataPlan(BASE, [{ path: 'users.csv', loop: false }]), 'k6');
    expect(script.files[1]).toMatchObject({ name: 'aqa_data_1_users.json' });
    expect(JSON.parse(script.files[1]!.content)).toHaveLength(20);
    const js = script.files[0]!.content;
    expect(js).toContain("import { SharedArray } from 'k6/data';");
    expect(js).toContain(
      'const DATA_1 = new SharedArray("aqa_data_1_users.csv", () => JSON.parse(open("./aqa_data_1_users.json")));',
    );
    expect(js).toContain('const dataIndex1 = exec.scenario.iterationInTest;');
    expect(js).toContain('exec.test.abort("test data \\"users.csv\\" ran out after 20 rows (loop: false)");');
    expect(js).toContain('vars["full-name"] = row1[1];');
    // k6's own types accept it (SharedArray, open, exec.test.abort).
    expect(typeCheckK6(js)).toEqual([]);
  });

  it('Locust: a csv reader beside the file and one shared iterator; a user finding no row stops', () => {
    const script = generateScript(dataPlan(BASE, [{ path: 'users.csv', loop: false }]), 'locust');
    const py = script.files[0]!.content;
    expect(script.files[1]).toEqual({ name: 'aqa_data_1_users.csv', content: ROWS });
    expect(py).toContain('DATA_1_NEXT = itertools.count()');
    expect(py).toContain('from locust.exception import StopUser');
    expect(py).toContain('self.vars["full-name"] = row[1]');
  });

  it('Taurus: data-sources naming the columns; share user is said not to be written', () => {
    const script = generateScript(dataPlan(BASE, [{ path: 'users.csv', share: 'user' }]), 'taurus');
    expect(script.files[0]!.content).toContain(
      [
        '    data-sources:',
        '      - path: aqa_data_1_users.csv',
        '        delimiter: ","',
        '        quoted: true',
        '        loop: true',
        '        variable-names: id,full_name',
      ].join('\n'),
    );
    expect(script.warnings).toContainEqual({
      field: 'data_sources[0].share',
      message:
        'Taurus data-sources have no sharing mode: every user takes the next row of one sequence (share: all)',
    });
  });

  it('random_order writes the rows shuffled once, the same on every generation', () => {
    const plan = dataPlan(BASE, [{ path: 'users.csv', random_order: true }]);
    const first = generateScript(plan, 'locust').files[1]!.content;
    expect(first).not.toBe(ROWS);
    expect(first.split('\n').sort()).toEqual(ROWS.split('\n').sort());
    expect(generateScript(plan, 'jmeter').files[1]!.content).toBe(first);
  });
});

/** The ids of /api/echo/{id} the target received. */
function echoedIds(requests: readonly { path: string }[]): number[] {
  return requests
    .filter((r) => r.path.startsWith('/api/echo/'))
    .map((r) => Number(r.path.slice('/api/echo/'.length)))
    .sort((a, b) => a - b);
}

const EVERY_ID = Array.from({ length: 20 }, (_, i) => i + 1);

describe(
  'test data in the real tools: every row once across the users (share all, loop false)',
  { timeout: 60_000 },
  () => {
    it.skipIf(jmeterMissing())('JMeter 2.13', async () => {
      const server = await startTargetServer();
      try {
        const script = generateScript(dataPlan(server.base, [{ path: 'users.csv', loop: false }]), 'jmeter', {
          toolVersion: '2.13',
        });
        const dir = workDir({
          'plan.jmx': script.files[0]!.content,
          [script.files[1]!.name]: script.files[1]!.content,
        });
        const result = await runJmeter(dir, 'plan.jmx', { users: 3, seconds: 5 });
        removeDir(dir);
        expect(result.code, result.stderr.slice(-2000)).toBe(0);
        expect(echoedIds(server.target.requests)).toEqual(EVERY_ID);
        const named = server.target.requests.find((r) => r.path === '/api/echo/7');
        expect(named?.headers['x-name']).toBe('Ada, 7');
      } finally {
        await server.close();
      }
    });

    it.skipIf(locustMissing())('Locust 2.x', async () => {
      const server = await startTargetServer();
      try {
        const script = generateScript(dataPlan(server.base, [{ path: 'users.csv', loop: false }]), 'locust');
        const dir = workDir({
          'plan.py': script.files[0]!.content,
          [script.files[1]!.name]: script.files[1]!.content,
        });
        const result = await runCommand(
          LOCUST_PYTHON,
          ['-m', 'locust', '-f', 'plan.py', '--headless', '-u', '3', '-r', '3', '-t', '4s', '--only-summary'],
          { cwd: dir, timeoutMs: 30_000 },
        );
        removeDir(dir);
        expect(result.code, result.stderr.slice(-2000)).toBe(0);
        expect(echoedIds(server.target.requests)).toEqual(EVERY_ID);
      } finally {
        await server.close();
      }
    });
  },
);
