import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { fixture, FIXTURES_DIR } from '../../test/fixtures';
import { ImportError } from './import-model';
import { readPostmanDataFile, readPostmanEnvironment } from './postman-files';
import { postmanToFunctionalPlan } from './postman-to-functional';

const V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const text = (name: string, value: unknown) => ({
  name,
  text: typeof value === 'string' ? value : JSON.stringify(value),
});
const exec = (source: string) => source.split('\n');

/** A shop API's collection as Postman exports it: chained login, folders, path variables, scripts. */
const SHOP = {
  info: { name: 'Shop', schema: V21 },
  variable: [
    { key: 'baseUrl', value: 'http://127.0.0.1:3000' },
    { key: 'token', value: '' },
  ],
  event: [{ listen: 'prerequest', script: { exec: exec('pm.variables.set("started", Date.now());') } }],
  item: [
    {
      name: 'Login',
      event: [
        {
          listen: 'test',
          script: {
            exec: exec(`var jsonData = pm.response.json();
pm.test("Status code is 200", function () {
    pm.response.to.have.status(200);
});
pm.test("Token is returned", function () {
    pm.expect(jsonData.token).to.exist;
});
pm.environment.set("token", jsonData.token);`),
          },
        },
      ],
      request: {
        method: 'POST',
        header: [{ key: 'Content-Type', value: 'application/json' }],
        body: { mode: 'raw', raw: '{"user":"{{username}}","password":"{{password}}"}' },
        url: { raw: '{{baseUrl}}/login', host: ['{{baseUrl}}'], path: ['login'] },
      },
    },
    {
      name: 'Orders',
      event: [
        {
          listen: 'test',
          script: {
            exec: exec('pm.test("Fast", () => pm.expect(pm.response.responseTime).to.be.below(1000));'),
          },
        },
      ],
      item: [
        {
          name: 'Admin',
          item: [
            {
              name: 'Get order',
              event: [
                {
                  listen: 'test',
                  script: {
                    exec: exec(`var count = Number(pm.environment.get("count") || 0);
pm.environment.set("count", count + 1);
pm.test("Order id echoed", function () {
    pm.expect(pm.response.json().id).to.eql(pm.environment.get("order_id"));
});`),
                  },
                },
              ],
              request: {
                method: 'GET',
                header: [{ key: 'Authorization', value: 'Bearer {{token}}' }],
                url: {
                  raw: '{{baseUrl}}/orders/:id?expand={{expand}}',
                  host: ['{{baseUrl}}'],
                  path: ['orders', ':id'],
                  query: [{ key: 'expand', value: '{{expand}}' }],
                  variable: [{ key: 'id', value: '{{order_id}}' }],
                },
              },
            },
          ],
        },
      ],
    },
  ],
};

const ENVIRONMENT = {
  id: 'e1',
  name: 'Local',
  values: [
    { key: 'username', value: 'ada', enabled: true },
    { key: 'password', value: 's3cret', enabled: true },
    { key: 'old', value: 'x', enabled: false },
  ],
  _postman_variable_scope: 'environment',
};

describe('postmanToFunctionalPlan', () => {
  it('turns a collection, its environment and a CSV into a plan ready to save', () => {
    const { plan, postman, warnings } = postmanToFunctionalPlan(text('shop.postman_collection.json', SHOP), {
      environment: text('local.postman_environment.json', ENVIRONMENT),
      data: text('orders.csv', 'order_id,expand\n7,lines\n8,"lines,customer"\n'),
    });
    expect(postman).toEqual({ tests: 4, rules: 3, scripts: 1, left_out: [] });
    expect(warnings.filter((w) => /script/.test(w.message))).toEqual([]);
    const saved = FunctionalPlanSchema.parse(plan);
    expect(saved).toMatchObject({
      test_name: 'Shop',
      iterations: 2,
      cookie_jar: true,
      follow_redirects: true,
      default_status_rule: false,
      variables: [
        { name: 'baseUrl', value: 'http://127.0.0.1:3000' },
        { name: 'token', value: '' },
      ],
      environment: {
        name: 'Local',
        values: [
          { name: 'username', value: 'ada' },
          { name: 'password', value: 's3cret' },
        ],
      },
      iteration_data: { name: 'orders.csv', format: 'csv' },
      scripts: {
        prerequest: [{ origin: 'collection', source: 'pm.variables.set("started", Date.now());' }],
        test: [],
      },
    });
    const [login, order] = saved.apis;
    expect(login).toMatchObject({
      url: '{{baseUrl}}/login',
      body: '{"user":"{{username}}","password":"{{password}}"}',
      captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
    });
    expect(login?.group).toBeUndefined();
    expect(login?.validations.map((v) => [v.name, v.type, v.expected_value])).toEqual([
      ['Status code is 200', 'status_code', '200'],
      ['Token is returned', 'json_path', '$.token'],
    ]);
    // The folder's test mapped to a rule on each API of the folder; the request's script kept whole.
    expect(order).toMatchObject({
      url: '{{baseUrl}}/orders/{{order_id}}',
      params: [{ name: 'expand', value: '{{expand}}' }],
      headers: { Authorization: 'Bearer {{token}}' },
      group: 'Orders / Admin',
      scripts: { prerequest: [], test: [{ origin: 'request' }] },
    });
    expect(order?.scripts?.test[0]?.source).toContain('pm.environment.set("count", count + 1);');
    expect(order?.validations.map((v) => [v.name, v.type, v.expected_value])).toEqual([
      ['Fast', 'response_time', '999'],
    ]);
  });

  it('keeps a folder script that does not map in each API of the folder, outermost first', () => {
    const collection = {
      info: { name: 'F', schema: V21 },
      item: [
        {
          name: 'Outer',
          event: [{ listen: 'prerequest', script: { exec: ['pm.variables.set("a", 1);'] } }],
          item: [
            {
              name: 'Inner',
              event: [{ listen: 'test', script: { exec: ['console.log(pm.response.code);'] } }],
              item: [
                {
                  name: 'R',
                  event: [
                    {
                      listen: 'test',
                      script: { exec: ['if (pm.response.code === 200) { pm.test("ok", () => {}); }'] },
                    },
                  ],
                  request: { url: 'http://127.0.0.1/r' },
                },
              ],
            },
          ],
        },
      ],
    };
    const { plan, postman } = postmanToFunctionalPlan(text('f.json', collection));
    expect(postman).toEqual({ tests: 1, rules: 0, scripts: 1, left_out: [] });
    expect(plan.apis?.[0]).toMatchObject({
      group: 'Outer / Inner',
      scripts: {
        prerequest: [{ origin: 'folder Outer' }],
        test: [{ origin: 'folder Inner' }, { origin: 'request' }],
      },
    });
  });

  it('lists a test that cannot run with its request and line', () => {
    const collection = {
      info: { name: 'L', schema: V21 },
      item: [
        {
          name: 'Broken',
          event: [
            {
              listen: 'test',
              script: { exec: ['tests["a"] = responseCode.code === 200;', 'pm.test("b", function () {'] },
            },
          ],
          request: { url: 'http://127.0.0.1/b' },
        },
      ],
    };
    const { postman, plan } = postmanToFunctionalPlan(text('l.json', collection));
    expect(postman.tests).toBe(2);
    expect(postman.left_out).toEqual([
      { request: 'Broken', line: 1, reason: expect.stringMatching(/not JavaScript that can run/) as unknown },
      { request: 'Broken', line: 2, reason: expect.stringMatching(/not JavaScript that can run/) as unknown },
    ]);
    expect(plan.apis?.[0]?.scripts).toBeUndefined();
  });

  it('reads an event given alone (not in a list) and a script given as its source, as Newman runs them', () => {
    const collection = {
      info: { name: 'E', schema: V21 },
      item: [
        {
          name: 'Alone',
          event: { listen: 'test', script: { exec: ['tests["one"] = responseCode.code === 200;'] } },
          request: { url: 'http://127.0.0.1/a' },
        },
        {
          name: 'Source',
          event: [
            { listen: 'prerequest', script: 'pm.variables.set("k", "v");' },
            {
              listen: 'test',
              script: [
                'pm.test("two", function () {',
                '  pm.expect(pm.variables.get("k")).to.eql("v");',
                '});',
              ],
            },
          ],
          request: { url: 'http://127.0.0.1/b' },
        },
      ],
    };
    const { plan, postman } = postmanToFunctionalPlan(text('e.json', collection));
    expect(postman.tests).toBe(2);
    expect(plan.apis?.[0]?.validations?.map((v) => v.name)).toEqual(['one']);
    expect(plan.apis?.[1]?.scripts).toEqual({
      prerequest: [{ origin: 'request', source: 'pm.variables.set("k", "v");' }],
      test: [
        {
          origin: 'request',
          source: 'pm.test("two", function () {\n  pm.expect(pm.variables.get("k")).to.eql("v");\n});',
        },
      ],
    });
  });

  it("keeps each request's description, which a script reads as request.description", () => {
    const collection = {
      info: { name: 'D', schema: V21 },
      item: [
        { name: 'Plain', request: { url: 'http://127.0.0.1/a', description: 'Lists the orders' } },
        {
          name: 'Markdown',
          request: {
            url: 'http://127.0.0.1/b',
            description: { content: 'Creates an **order**', type: 'text/markdown' },
          },
        },
        { name: 'None', request: { url: 'http://127.0.0.1/c' } },
        { name: 'Long', request: { url: 'http://127.0.0.1/d', description: 'x'.repeat(2500) } },
      ],
    };
    const plan = FunctionalPlanSchema.parse(postmanToFunctionalPlan(text('d.json', collection)).plan);
    expect(plan.apis.map((a) => a.description)).toEqual([
      'Lists the orders',
      'Creates an **order**',
      '',
      'x'.repeat(2000),
    ]);
  });

  it('reads a JSON data file and a globals file given as the environment (Newman fixtures)', () => {
    const dir = 'postman/newman/globals-env-data-files/globals-env-data-files';
    const { plan, postman } = postmanToFunctionalPlan(fixture(`${dir}.postman_collection.json`), {
      environment: fixture(`${dir}.postman_globals.json`),
      data: fixture(`${dir}.postman_data.json`),
    });
    const saved = FunctionalPlanSchema.parse(plan);
    expect(saved.iterations).toBe(1);
    expect(saved.iteration_data).toMatchObject({ format: 'json' });
    expect(saved.globals?.map((v) => v.name)).toContain('full_global_url');
    expect(saved.environment).toBeUndefined();
    expect(postman.tests).toBeGreaterThan(0);
  });

  it('imports every fixture collection into a plan the model accepts', () => {
    const root = `${FIXTURES_DIR}postman`;
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((e) =>
        statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)],
      );
    const totals = { files: 0, tests: 0, rules: 0, scripts: 0, left_out: 0 };
    for (const file of walk(root).filter((f) => !/environment|globals|_data|\/data-json\.json$/.test(f))) {
      const { plan, postman } = postmanToFunctionalPlan(fixture(file.slice(FIXTURES_DIR.length)));
      if ((plan.apis ?? []).length === 0) continue;
      const parsed = FunctionalPlanSchema.safeParse(plan);
      expect(parsed.error?.issues, file).toBeUndefined();
      expect(postman.rules + postman.scripts + postman.left_out.length, file).toBe(postman.tests);
      totals.files++;
      totals.tests += postman.tests;
      totals.rules += postman.rules;
      totals.scripts += postman.scripts;
      totals.left_out += postman.left_out.length;
    }
    expect(totals.files).toBeGreaterThan(60);
    expect(totals.rules).toBeGreaterThan(50);
    expect(totals.left_out).toBe(0);
  });
});

describe('readPostmanEnvironment', () => {
  it('reads an environment, leaving disabled values out', () => {
    expect(readPostmanEnvironment(text('e.json', ENVIRONMENT))).toEqual({
      scope: 'environment',
      environment: {
        name: 'Local',
        values: [
          { name: 'username', value: 'ada' },
          { name: 'password', value: 's3cret' },
        ],
      },
    });
    expect(
      readPostmanEnvironment(text('g.json', { name: 'G', values: [], _postman_variable_scope: 'globals' }))
        .scope,
    ).toBe('globals');
  });

  it.each([
    ['not JSON', '{"name": "x", "values": [', /e\.json: JSON syntax error/],
    [
      'no values',
      { name: 'x' },
      /e\.json: this is not a Postman environment: it has no "values" list \(its keys are name\)/,
    ],
    ['a collection', SHOP, /e\.json: this is a Postman collection, not an environment/],
    [
      'a value without a key',
      { values: [{ value: 'v' }, { key: 'a{b', value: '1' }] },
      /values\[0\] has no key; values\[1\] \(a\{b\): A variable name cannot hold \{ or \}/,
    ],
  ])('refuses %s with a clear message', (_what, body, message) => {
    expect(() => readPostmanEnvironment(text('e.json', body))).toThrow(message);
    expect(() => readPostmanEnvironment(text('e.json', body))).toThrow(ImportError);
  });
});

describe('readPostmanDataFile', () => {
  it('reads CSV as Newman does: a header, quoted fields with commas, quotes and line breaks', () => {
    const read = readPostmanDataFile(
      text('d.csv', 'name,note\r\n"Kane, A","say ""hi"""\r\nB,"two\nlines"\r\n'),
    );
    expect(read.rows).toEqual([
      { name: 'Kane, A', note: 'say "hi"' },
      { name: 'B', note: 'two\nlines' },
    ]);
    expect(read.data).toMatchObject({ name: 'd.csv', format: 'csv' });
  });

  it.each([
    [
      'a row with too many fields',
      'd.csv',
      'a,b\n1,2\n3,4,5\n',
      /row 2 \(line 3\) has 3 field\(s\) where the header row has 2/,
    ],
    ['an unclosed quote', 'd.csv', 'a,b\n1,"2\n3,4\n', /quoted field opened on line 2 that is never closed/],
    [
      'a header without names',
      'd.csv',
      'a,,c\n1,2,3\n',
      /a blank column name \(column 2 of its header row on line 1\)/,
    ],
    ['only a header', 'd.csv', 'a,b\n', /the data file has no rows/],
    ['JSON that is no array', 'd.json', '{"a": 1}', /must hold a JSON array of objects/],
    ['JSON with a row that is no object', 'd.json', '[{"a": 1}, 2]', /row 2 is not a JSON object/],
  ])('refuses %s, naming the line or row', (_what, name, body, message) => {
    expect(() => readPostmanDataFile(text(name, body))).toThrow(message);
  });
});
