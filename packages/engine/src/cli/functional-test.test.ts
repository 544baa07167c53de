import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';
import { importFile, planToFunctional } from '@aqa/converters';
import { FunctionalResultSchema, migratePlan } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../test/fixtures';
import { TestTarget } from '../testing/target';

const BIN = fileURLToPath(new URL('../../bin/aqa.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'aqa-test-'));
const target = new TestTarget();

beforeAll(async () => {
  await target.start();
  target.route = (req, res) => {
    if (req.path === '/stall') return; // never answers: the run waits on it until stopped
    if (req.path.startsWith('/v1/pets')) return petstore(req.method, req.path, res);
    if (req.path === '/login') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"token":"tok-42"}');
      return;
    }
    if (req.path === '/roles') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"roles":["admin","qa"],"orders":[{"id":7,"state":"open"},{"id":8,"state":"paid"}]}');
      return;
    }
    if (req.path === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such thing');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 7, path: req.path }));
  };
});
afterAll(async () => {
  await target.close();
});

/** The Petstore example's API: a list that conforms to its schema, a pet whose id breaks it. */
function petstore(method: string, path: string, res: ServerResponse): void {
  if (method === 'POST') {
    res.writeHead(201).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(path === '/v1/pets' ? '[{"id":1,"name":"Rex","tag":"dog"}]' : '{"id":"seven","name":"Rex"}');
}

const OAI_PETSTORE = `${FIXTURES_DIR}openapi/oai-examples/v3.0/petstore.yaml`;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the `aqa` command; `interruptAfter` sends Ctrl-C once stdout shows that text. */
function aqa(args: string[], interruptAfter?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (interruptAfter !== undefined && !interrupted && stdout.includes(interruptAfter)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function planFile(name: string, plan: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

const api = (name: string, path: string, validations: Record<string, string>[] = []) => ({
  name,
  url: `${target.origin}${path}`,
  method: 'GET',
  validations,
});

/** A Taurus script written to `folder` (made if missing) under `name`. */
function scriptFile(folder: string, name: string, yaml: string): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, name);
  writeFileSync(file, yaml);
  return file;
}

function junit(file: string) {
  const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(
    readFileSync(file, 'utf8'),
    'text/xml',
  );
  // Newman's layout: a <testsuite> per call, a <testcase> per rule; <testsuites> counts them all.
  const root = doc.getElementsByTagName('testsuites')[0]!;
  return {
    counts: ['tests', 'failures', 'errors'].map((a) => Number(root.getAttribute(a))),
    suites: Array.from(doc.getElementsByTagName('testsuite')).map((s) => s.getAttribute('name')),
    cases: Array.from(doc.getElementsByTagName('testcase')),
  };
}

describe('aqa test', () => {
  it('exits 0 when every call passed, reads a plan as the server saved it, and writes the three reports', async () => {
    target.reset();
    // As GET /api/functional/get-test-config/{id} answers it: the saved fields are ignored.
    const file = planFile('saved', {
      id: 'p1',
      _id: 'p1',
      schema_version: 1,
      user_email: 'qa@example.com',
      status: 'saved',
      created_at: '2026-11-26T10:00:00Z',
      updated_at: '2026-11-26T10:00:00Z',
      test_framework: 'taurus',
      script_content: '',
      validations: [],
      test_name: 'Smoke',
      description: '',
      concurrent_users: 1,
      iterations: 2,
      ramp_up_time: 0,
      test_duration: 1,
      think_time: 0,
      test_type: 'functional',
      source: 'url_input',
      apis: [
        api('List', '/list', [{ type: 'json_path', expected_value: '$.id == 7' }]),
        api('Show', '/show'),
      ],
    });
    const files = ['junit.xml', 'result.json', 'report.html'].map((f) => join(dir, f));
    const r = await aqa(['test', file, '--junit', files[0]!, '--json', files[1]!, '--html', files[2]!]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ List \(iteration 1, user 1\) {2}200 {2}\d+ ms/);
    expect(r.stdout.match(/✓ /g)).toHaveLength(4);
    expect(r.stdout).toContain('Smoke: completed');
    const result = FunctionalResultSchema.parse(JSON.parse(readFileSync(files[1]!, 'utf8')));
    expect(result.summary.total_requests).toBe(target.count);
    expect(target.count).toBe(4);
    expect(result.plan_id).toBe('p1');
    expect(junit(files[0]!).counts).toEqual([4, 0, 0]);
    expect(readFileSync(files[2]!, 'utf8')).toContain('<h1>Smoke <span class="badge completed">');
  });

  it('exits 1 when a validation failed, printing and reporting the rule with expected and actual', async () => {
    const file = planFile('failing', {
      test_name: 'Failing',
      think_time: 0,
      apis: [api('Fine', '/fine'), api('Gone', '/missing', [{ type: 'status_code', expected_value: '200' }])],
    });
    const junitFile = join(dir, 'failing.xml');
    const r = await aqa(['test', file, '--junit', junitFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ Gone  404');
    expect(r.stdout).toContain('    status_code: expected status 200, got 404');
    expect(r.stdout).toContain('      actual:   404');
    const { counts, cases } = junit(junitFile);
    expect(counts).toEqual([2, 1, 0]);
    const failure = cases[1]!.getElementsByTagName('failure')[0]!;
    expect(failure.getAttribute('message')).toBe('expected status 200, got 404');
    expect(failure.textContent).toContain('expected: 200');
  });

  it('exits 2 naming every problem of an invalid plan, an unreadable file, or a target that never answers', async () => {
    const invalid = await aqa([
      'test',
      planFile('invalid', {
        test_name: '',
        apis: [
          { name: 'A', url: '' },
          { name: '', url: 'http://x.test/' },
        ],
      }),
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('is not a valid functional plan');
    expect(invalid.stderr).toContain('test_name: Test name is required');
    expect(invalid.stderr).toContain('apis[0].url: API #1 URL is required');
    expect(invalid.stderr).toContain('apis[1].name: API #2 name is required');

    const missing = await aqa(['test', join(dir, 'no-such-plan.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read plan .*no-such-plan\.json/);

    const junitFile = join(dir, 'refused.xml');
    const refused = await aqa([
      'test',
      planFile('refused', {
        test_name: 'Down',
        think_time: 0,
        apis: [{ name: 'Down', url: 'http://127.0.0.1:1/' }],
      }),
      '--junit',
      junitFile,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('✗ Down');
    expect(junit(junitFile).counts).toEqual([1, 0, 1]);
  });

  it('stops on Ctrl-C and still writes the reports with what was measured', async () => {
    target.reset();
    const junitFile = join(dir, 'stopped.xml');
    const r = await aqa(
      [
        'test',
        planFile('stalls', {
          test_name: 'Stalls',
          think_time: 0,
          apis: [api('Quick', '/quick'), { ...api('Stall', '/stall'), timeout: 300 }],
        }),
        '--junit',
        junitFile,
      ],
      '✓ Quick',
    );
    expect(r.stderr).toContain('aqa test: stopping');
    expect(r.stdout).toContain('Stalls: stopped');
    expect(r.code).toBe(2);
    expect(existsSync(junitFile)).toBe(true);
    expect(junit(junitFile).suites[0]).toBe('Quick');
    expect(target.byPath.get('/stall')).toBe(1);
  });

  it('checks bodies against the schemas an OpenAPI import inlined: one conforms, one is named by its path', async () => {
    const imported = importFile({
      name: 'petstore.yaml',
      bytes: new Uint8Array(readFileSync(OAI_PETSTORE)),
      baseUrl: `${target.origin}/v1`,
      responseSchemas: true,
    });
    const perf = migratePlan({
      name: 'Petstore',
      // The value the import summary asks for (needs a value: petId).
      urls: imported.steps.map((step) => ({ ...step, url: step.url.replace('{{petId}}', '7') })),
    });
    const { plan } = planToFunctional(perf, imported.sources);
    const junitFile = join(dir, 'petstore.xml');
    const r = await aqa(['test', planFile('petstore', plan), '--junit', junitFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✓ List all pets {2}200/);
    expect(r.stdout).toMatch(/✓ Create a pet {2}201/);
    expect(r.stdout).toMatch(/✗ Info for a specific pet {2}200/);
    expect(r.stdout).toContain('at /id:');
    const { counts, cases } = junit(junitFile);
    // A case per rule: each call's status and schema rules.
    expect(counts).toEqual([5, 1, 0]);
    const failed = cases.filter((c) => c.getElementsByTagName('failure').length > 0);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.getElementsByTagName('failure')[0]!.textContent).toContain(
      'schema "Documented response schema"',
    );
  });

  it('documents itself', async () => {
    const help = await aqa(['test', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('aqa test <functional-plan.json | collection.postman_collection.json>');
    expect(help.stdout).toContain('--folder NAME');
    expect(help.stdout).toContain('aqa test <script.yml> [--junit FILE]');
    expect((await aqa(['--help'])).stdout).toContain('aqa test <functional-plan.json | script.yml>');
  });
});

describe('aqa test with a Taurus script', () => {
  it('runs a YAML file: the token its login extracts reaches the next call, a failed assertion exits 1', async () => {
    target.reset();
    const file = scriptFile(
      join(dir, 'chain'),
      'chain.yml',
      `execution:
- concurrency: 1
  iterations: 1
  scenario: shop
scenarios:
  shop:
    think-time: 0s
    default-address: ${target.origin}
    requests:
    - url: /login
      method: POST
      body: {user: qa}
      extract-jsonpath:
        token: $.token
    - url: /orders
      headers:
        Authorization: Bearer \${token}
      assert:
      - contains: [nothing-like-this]
    - if: \${token} == 'x'
      then:
      - url: /never
`,
    );
    const r = await aqa(['test', file]);
    expect(r.code).toBe(1);
    // The reader's warning, printed before the run: path, line, and what happens to it.
    expect(r.stderr).toMatch(/warning: scenarios\.shop\.requests\[2\]\S* \(line 20\): .*\[skipped\]/);
    expect(r.stdout).toMatch(/^shop: 2 API\(s\), 1 iteration\(s\), 1 user\(s\)$/m);
    expect(r.stdout).toMatch(/✓ POST \S*\/login {2}200/);
    expect(r.stdout).toContain('nothing-like-this');
    expect(target.recorded.map((q) => [q.method, q.path])).toEqual([
      ['POST', '/login'],
      ['GET', '/orders'],
    ]);
    expect(target.recorded[1]!.headers.authorization).toBe('Bearer tok-42');
  });

  it("feeds a CSV data source's rows in order, read beside the YAML or from a script plan's data_files", async () => {
    const yaml = `execution:
- iterations: 3
  scenario: users
scenarios:
  users:
    think-time: 0s
    data-sources:
    - path: users.csv
      loop: false
    requests:
    - url: ${target.origin}/user?name=\${name}
`;
    const csv = 'name\nalice\nbob\ncarol\n';
    const folder = join(dir, 'csv');
    writeFileSync(join(scriptFile(folder, 'users.yml', yaml), '..', 'users.csv'), csv);
    target.reset();
    // Run from another folder: the CSV is found beside the script, not in the working directory.
    const r = await aqa(['test', join(folder, 'users.yml')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(target.recorded.map((q) => q.query.get('name'))).toEqual(['alice', 'bob', 'carol']);

    // The same script as a saved script plan: its data_files and its Global Validation Rules apply.
    target.reset();
    const planned = await aqa([
      'test',
      planFile('script-plan', {
        test_name: 'Users',
        source: 'script_input',
        script_content: yaml,
        iterations: 2,
        think_time: 0,
        data_files: { 'users.csv': csv },
        validations: [{ type: 'status_code', expected_value: '201' }],
      }),
    ]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain('status_code: expected status 201, got 200');
    expect(target.recorded.map((q) => q.query.get('name'))).toEqual(['alice', 'bob']);

    const missing = await aqa(['test', scriptFile(join(dir, 'nocsv'), 'users.yml', yaml)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the data source users\.csv .*cannot be read from .*nocsv\/users\.csv/);
  });

  it('refuses a script with nothing it can run, naming every reason', async () => {
    target.reset();
    const file = scriptFile(
      join(dir, 'gatling'),
      'gatling.yaml',
      `execution:
- executor: gatling
  scenario: sim
scenarios:
  sim:
    script: BasicSimulation.scala
`,
    );
    const r = await aqa(['test', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The script cannot run:');
    expect(r.stderr).toMatch(/execution\[0\]\S* \(line 2\): .*gatling/);
    expect(target.count).toBe(0);
  });
});

describe('aqa test with Postman files (docs/adr/0029-postman-collections.md)', () => {
  const postmanPlan = (extra: Record<string, unknown> = {}) => ({
    test_name: 'Shop',
    think_time: 0,
    variables: [
      { name: 'host', value: 'collection' },
      { name: 'seg', value: 'refund' },
    ],
    apis: [
      { ...api('List orders', '/orders?who={{who}}&host={{host}}'), group: 'Orders' },
      {
        ...api('Refund', '/orders/refund', [
          { name: 'Refunded', type: 'status_code', expected_value: '200' },
          { type: 'contains_text', expected_value: '{{seg}}' },
        ]),
        group: 'Orders / Admin',
      },
      { ...api('Me', '/me'), group: 'Account' },
      api('Health', '/health'),
    ],
    ...extra,
  });

  it('--folder runs only the APIs in that folder or under it, and names the folders when it is unknown', async () => {
    target.reset();
    const scripts = { prerequest: [{ origin: 'collection', source: 'pm.variables.set("a", 1)' }], test: [] };
    const file = planFile('shop', postmanPlan({ scripts }));
    const r = await aqa(['test', file, '--folder', 'Orders']);
    expect(r.code).toBe(0);
    // The collection's pre-request script runs (docs/adr/0029-postman-collections.md §3): no warning.
    expect(r.stderr).not.toContain('not run yet');
    expect(target.recorded.map((q) => q.path)).toEqual(['/orders', '/orders/refund']);

    target.reset();
    const unknown = await aqa(['test', file, '--folder', 'Billing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `has no folder "Billing"; its folders are: "Orders", "Orders / Admin", "Account"`,
    );
    expect(target.count).toBe(0);
  });

  it('--environment, --globals and --data: one iteration per row, the environment over the collection', async () => {
    target.reset();
    const env = join(dir, 'dev.postman_environment.json');
    writeFileSync(
      env,
      JSON.stringify({
        name: 'dev',
        values: [
          { key: 'host', value: 'environment', enabled: true },
          { key: 'who', value: 'disabled', enabled: false },
        ],
      }),
    );
    const globals = join(dir, 'globals.json');
    writeFileSync(globals, JSON.stringify({ name: 'Globals', values: [{ key: 'who', value: 'global' }] }));
    const data = join(dir, 'people.csv');
    writeFileSync(data, 'who\nada\nalan\ngrace\n');
    const junitFile = join(dir, 'shop.xml');
    const args = ['test', planFile('shop-data', postmanPlan()), '--folder', 'Orders'];
    const r = await aqa([
      ...args,
      '--environment',
      env,
      '--globals',
      globals,
      '--data',
      data,
      '--junit',
      junitFile,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Shop: 2 API(s), 3 iteration(s), 1 user(s)');
    const orders = target.recorded.filter((q) => q.path === '/orders');
    expect(orders.map((q) => [q.query.get('who'), q.query.get('host')])).toEqual([
      ['ada', 'environment'],
      ['alan', 'environment'],
      ['grace', 'environment'],
    ]);

    // Newman's JUnit: a suite per call, a case per rule named by its name, or its type and expected value.
    const { counts, suites, cases } = junit(junitFile);
    expect(counts).toEqual([9, 0, 0]);
    expect(suites.slice(0, 2)).toEqual(['List orders (iteration 1, user 1)', 'Refund (iteration 1, user 1)']);
    expect(cases.slice(0, 3).map((c) => c.getAttribute('name'))).toEqual([
      'status_code 200',
      'Refunded',
      // The expected value as judged: expanded.
      'contains_text refund',
    ]);

    target.reset();
    const globalsOnly = await aqa([
      'test',
      planFile('shop-globals', postmanPlan()),
      '--globals',
      globals,
      '--folder',
      'Orders',
    ]);
    expect(globalsOnly.code).toBe(0);
    expect(target.recorded[0]!.query.get('who')).toBe('global');
  });

  it('refuses a malformed environment or data file before anything runs, saying what is wrong', async () => {
    target.reset();
    const file = planFile('shop-bad', postmanPlan());
    const env = join(dir, 'bad-env.json');
    writeFileSync(env, JSON.stringify({ name: 'dev', values: [{ value: 'x' }] }));
    const badEnv = await aqa(['test', file, '--environment', env]);
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain(`environment file ${env}: values[0] has no key`);

    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, 'who,host\nada,x\nalan\n');
    const badCsv = await aqa(['test', file, '--data', csv]);
    expect(badCsv.code).toBe(2);
    expect(badCsv.stderr).toContain(
      `data file ${csv}: row 2 (line 3) has 1 field(s) where the header row has 2`,
    );

    const json = join(dir, 'bad.json');
    writeFileSync(json, '{"who":"ada"}');
    const badJson = await aqa(['test', file, '--data', json]);
    expect(badJson.stderr).toContain(`${json}: the data file must hold a JSON array of objects`);
    expect(target.count).toBe(0);
  });
});

describe('aqa test with JSONPath filters (issue #27)', () => {
  it('judges every filter form; one that cannot be judged fails its rule and capture, and every later call runs', async () => {
    target.reset();
    const file = planFile('filters', {
      test_name: 'Filters',
      think_time: 0,
      apis: [
        api('Roles', '/roles', [
          { type: 'json_path', expected_value: "$.roles[?(@=='qa')]", name: 'qa is a role' },
          { type: 'json_path', expected_value: "$.orders[?(@.state == 'paid')].id == 8" },
          { type: 'json_path', expected_value: "$.orders[?(@.id > 7 && @.state != 'open')].id == 8" },
          { type: 'json_path', expected_value: "$..orders[?(@.id < 8 || @.state == 'x')].state == open" },
        ]),
        {
          ...api('Broken', '/roles', [
            { type: 'json_path', expected_value: '$.orders[?(@.state==]', name: 'broken filter' },
            { type: 'status_code', expected_value: '200' },
          ]),
          captures: [{ name: 'paid', from: 'json_path', expression: "$.orders[?(@.state == 'paid')].id" }],
        },
        {
          ...api('Bad capture', '/roles'),
          captures: [{ name: 'x', from: 'json_path', expression: '$.orders[?(@.id =~ /7/)].id' }],
        },
        api('Later', '/order/{{paid}}', [{ type: 'status_code', expected_value: '200' }]),
      ],
    });
    const junitFile = join(dir, 'filters.xml');
    const r = await aqa(['test', file, '--junit', junitFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    // Every call ran, the one after the failures too, with the value the filter captured.
    expect(target.count).toBe(4);
    expect(target.byPath.get('/order/8')).toBe(1);
    expect(r.stdout).toMatch(/✓ Roles {2}200/);
    expect(r.stdout).toMatch(/✗ Broken {2}200/);
    expect(r.stdout).toContain(
      '$.orders[?(@.state==] cannot be judged: $.orders[?(@.state==] does not close: ] at character 21 comes before its ( is closed',
    );
    expect(r.stdout).toMatch(/✗ Bad capture {2}200/);
    expect(r.stdout).toContain(
      'Capture x found nothing: $.orders[?(@.id =~ /7/)].id cannot be read: = is not a comparison in a JSONPath filter',
    );
    expect(r.stdout).toMatch(/✓ Later {2}200/);
    expect(r.stdout).toContain('calls 4: 2 passed, 2 failed');
    // One JUnit case per rule of each call (4 + 2 + the default status rule + 1) and the run's own
    // (docs/adr/0029-postman-collections.md §3): the broken rule and the failed capture fail.
    expect(junit(junitFile).counts).toEqual([9, 2, 0]);
  });
});
