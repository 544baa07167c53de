import { describe, expect, it } from 'vitest';
import { describeIssues } from '../migrate-plan';
import {
  ApiDefinitionSchema,
  FunctionalPlanSchema,
  newApiDefinition,
  newFunctionalPlan,
  type FunctionalPlanInput,
} from './functional-plan';

const api = { name: 'List users', url: 'https://api.test/users' };
const minimal: FunctionalPlanInput = { test_name: 'Smoke', apis: [api] };

function issues(input: unknown) {
  const result = FunctionalPlanSchema.safeParse(input);
  if (result.success) throw new Error('expected the plan to be refused');
  return describeIssues(result.error);
}

const parse = (fields: Record<string, unknown>) => FunctionalPlanSchema.parse({ ...minimal, ...fields });

describe('FunctionalPlanSchema defaults', () => {
  it('fills a new plan: 1 user, 1 iteration, ramp-up 0, 1 minute, think time 1, functional url_input taurus', () => {
    expect(FunctionalPlanSchema.parse(minimal)).toMatchObject({
      schema_version: 1,
      concurrent_users: 1,
      iterations: 1,
      ramp_up_time: 0,
      test_duration: 1,
      think_time: 1,
      test_type: 'functional',
      source: 'url_input',
      test_framework: 'taurus',
      description: '',
      script_content: '',
      validations: [],
    });
  });

  it('fills a new API: GET, timeout 30, no validations', () => {
    expect(newApiDefinition()).toEqual({
      name: '',
      url: '',
      method: 'GET',
      headers: {},
      body: '',
      params: [],
      authorization: expect.objectContaining({ type: 'none' }) as unknown,
      validations: [],
      description: '',
      timeout: 30,
    });
  });

  it('makes a new plan with the defaults that the schema accepts once named and given an API', () => {
    const plan = FunctionalPlanSchema.parse({ ...newFunctionalPlan(), ...minimal });
    expect(plan.concurrent_users).toBe(1);
    expect(newFunctionalPlan('ui_url_input')).toMatchObject({ test_type: 'ui', source: 'ui_url_input' });
  });

  it('uses selenium for a UI source unless a framework is given', () => {
    expect(parse({ source: 'ui_url_input', test_type: 'ui' }).test_framework).toBe('selenium');
    expect(
      parse({ source: 'script_input', script_content: 'x', test_framework: 'selenium' }).test_framework,
    ).toBe('selenium');
  });

  it('accepts every test type and source', () => {
    for (const test_type of ['functional', 'api', 'ui'])
      expect(parse({ test_type }).test_type).toBe(test_type);
    for (const source of ['url_input', 'script_input', 'ui_url_input'])
      expect(parse({ source, script_content: 'execution: []' }).source).toBe(source);
    expect(issues({ ...minimal, test_type: 'performance' })[0]?.message).toBe(
      'Test type must be one of functional, api, ui',
    );
  });

  it('reads _id as id', () => {
    expect(parse({ _id: 'abc' })).toMatchObject({ id: 'abc' });
    expect(parse({ _id: 'abc' })).not.toHaveProperty('_id');
    expect(parse({ id: 'x', _id: 'abc' }).id).toBe('x');
  });
});

describe('FunctionalPlanSchema bounds', () => {
  const cases = [
    ['concurrent_users', 1, 100, 'Concurrent users must be a whole number from 1 to 100'],
    ['iterations', 1, 1000, 'Iterations must be a whole number from 1 to 1000'],
    ['test_duration', 1, 60, 'Test duration must be a whole number of minutes from 1 to 60'],
    ['ramp_up_time', 0, 300, 'Ramp-up time must be a whole number of seconds from 0 to 300'],
    ['think_time', 0, 60, 'Think time must be a whole number of seconds from 0 to 60'],
  ] as const;

  for (const [field, min, max, message] of cases) {
    it(`keeps ${field} at ${min} and ${max} and refuses ${min - 1} and ${max + 1}`, () => {
      expect(parse({ [field]: min })[field]).toBe(min);
      expect(parse({ [field]: max })[field]).toBe(max);
      expect(parse({ [field]: String(max) })[field]).toBe(max);
      expect(issues({ ...minimal, [field]: min - 1 })).toEqual([{ field, message }]);
      expect(issues({ ...minimal, [field]: max + 1 })).toEqual([{ field, message }]);
    });

    it(`refuses ${field} that is not a plain whole number`, () => {
      for (const bad of [1.5, '1e1', '0x10', ' 5x', '-1', true, {}, Infinity, Number.NaN]) {
        expect(issues({ ...minimal, [field]: bad })).toEqual([{ field, message }]);
      }
    });
  }

  it('falls back when blank: users 1, iterations 1, duration 1, ramp-up 0, think time 1', () => {
    for (const blank of [undefined, null, '', '   ']) {
      expect(
        parse({
          concurrent_users: blank,
          iterations: blank,
          test_duration: blank,
          ramp_up_time: blank,
          think_time: blank,
        }),
      ).toMatchObject({
        concurrent_users: 1,
        iterations: 1,
        test_duration: 1,
        ramp_up_time: 0,
        think_time: 1,
      });
    }
  });

  it('bounds a UI test to 10 iterations', () => {
    const ui = { source: 'ui_url_input', test_type: 'ui' };
    expect(parse({ ...ui, iterations: 10 }).iterations).toBe(10);
    expect(issues({ ...minimal, ...ui, iterations: 11 })).toEqual([
      { field: 'iterations', message: 'Iterations must be a whole number from 1 to 10' },
    ]);
    // Past the URL screen's 1000 too, or no number at all: still the UI bounds.
    for (const iterations of [5000, 'abc']) {
      expect(issues({ ...minimal, ...ui, iterations })).toEqual([
        { field: 'iterations', message: 'Iterations must be a whole number from 1 to 10' },
      ]);
    }
  });

  it("lists a number that is no number together with the plan's other problems", () => {
    expect(
      issues({
        test_name: '',
        apis: [{ name: '', url: 'https://shop.test/' }],
        concurrent_users: 'abc',
        test_duration: 61,
      }),
    ).toEqual([
      { field: 'test_name', message: 'Test name is required' },
      { field: 'apis[0].name', message: 'API #1 name is required' },
      { field: 'concurrent_users', message: 'Concurrent users must be a whole number from 1 to 100' },
      { field: 'test_duration', message: 'Test duration must be a whole number of minutes from 1 to 60' },
    ]);
  });

  it('falls back to a 30 s API timeout for any invalid value and keeps 1 to 300', () => {
    const timeout = (value: unknown) => ApiDefinitionSchema.parse({ ...api, timeout: value }).timeout;
    expect(timeout(1)).toBe(1);
    expect(timeout(300)).toBe(300);
    expect(timeout('45')).toBe(45);
    for (const bad of [0, 301, -5, 2.5, 'abc', '', null, undefined, '1e2', true])
      expect(timeout(bad)).toBe(30);
  });
});

describe('FunctionalPlanSchema rules', () => {
  it("says the reference's messages, every one at once, in list order", () => {
    expect(
      issues({
        test_name: '  ',
        apis: [
          { name: ' ', url: '' },
          { name: 'b', url: ' ' },
        ],
      }),
    ).toEqual([
      { field: 'test_name', message: 'Test name is required' },
      { field: 'apis[0].name', message: 'API #1 name is required' },
      { field: 'apis[0].url', message: 'API #1 URL is required' },
      { field: 'apis[1].url', message: 'API #2 URL is required' },
    ]);
  });

  it('needs an API on the URL screen and a script on the script screen', () => {
    expect(issues({ test_name: 'a' })).toEqual([
      { field: 'apis', message: 'At least one API must be configured' },
    ]);
    expect(issues({ test_name: 'a', source: 'script_input', script_content: ' \n' })).toEqual([
      { field: 'script_content', message: 'Script content is required' },
    ]);
    expect(parse({ source: 'script_input', apis: [], script_content: 'execution: []' }).apis).toEqual([]);
  });

  it('names UI tests in the UI messages', () => {
    expect(issues({ test_name: 'a', source: 'ui_url_input', test_type: 'ui' })).toEqual([
      { field: 'apis', message: 'At least one UI test must be configured' },
    ]);
    expect(issues({ test_name: 'a', source: 'ui_url_input', apis: [{ name: '', url: '' }] })).toEqual([
      { field: 'apis[0].name', message: 'UI Test #1 name is required' },
      { field: 'apis[0].url', message: 'UI Test #1 URL is required' },
    ]);
  });

  it('lets a page use only UI validation types and an API call only API types', () => {
    const check = (type: string, expected_value: string) => ({
      ...api,
      validations: [{ type, expected_value }],
    });
    expect(issues({ ...minimal, apis: [check('page_title', 'Home')] })).toEqual([
      {
        field: 'apis[0].validations[0].type',
        message:
          'An API test checks status_code, response_time, json_path, contains_text, header_value, response_size, schema, regex, xpath, equals, not page_title',
      },
    ]);
    expect(issues({ ...minimal, source: 'ui_url_input', apis: [check('status_code', '200')] })).toEqual([
      {
        field: 'apis[0].validations[0].type',
        message: 'A UI test checks contains_text, element_exists, page_title, not status_code',
      },
    ]);
    expect(parse({ source: 'ui_url_input', apis: [check('element_exists', '#app')] }).apis).toHaveLength(1);
  });

  it('refuses control characters in the test name, an API name and a URL', () => {
    expect(issues({ ...minimal, test_name: 'a\u0000b' })[0]).toEqual({
      field: 'test_name',
      message: 'Test name cannot contain control characters or line breaks',
    });
    expect(issues({ ...minimal, apis: [{ ...api, name: 'a\nb' }] })[0]).toEqual({
      field: 'apis[0].name',
      message: 'API name cannot contain control characters or line breaks',
    });
    expect(issues({ ...minimal, apis: [{ ...api, url: 'https://a.test/\u2028x' }] })[0]).toEqual({
      field: 'apis[0].url',
      message: 'URL cannot contain control characters or line breaks',
    });
  });

  it('takes a full URL or one that starts with a template', () => {
    expect(parse({ apis: [{ ...api, url: '{{base}}/users' }] }).apis[0]?.url).toBe('{{base}}/users');
    expect(issues({ ...minimal, apis: [{ ...api, url: 'api.test/users' }] })).toEqual([
      {
        field: 'apis[0].url',
        message: 'Enter a full URL starting with http:// or https:// (or with a {{variable}})',
      },
    ]);
  });

  it('offers every method, HEAD and OPTIONS too, in any case', () => {
    for (const method of ['get', 'POST', 'PUT', 'DELETE', 'PATCH', 'head', 'OPTIONS'])
      expect(ApiDefinitionSchema.parse({ ...api, method }).method).toBe(method.toUpperCase());
  });

  it('checks header names and values, and reads params as a list or a map', () => {
    const parsed = ApiDefinitionSchema.safeParse({ ...api, headers: { 'Bad Name': 'x', Ok: 'a\r\nb' } });
    expect(parsed.success ? [] : describeIssues(parsed.error).map((i) => i.field)).toEqual([
      'headers.Bad Name',
      'headers.Ok',
    ]);
    expect(ApiDefinitionSchema.parse({ ...api, params: { page: '2' } }).params).toEqual([
      { name: 'page', value: '2' },
    ]);
    expect(ApiDefinitionSchema.parse({ ...api, params: [{ name: 'q' }] }).params).toEqual([
      { name: 'q', value: '' },
    ]);
  });
});

describe('captures', () => {
  const capture = (fields: Record<string, unknown>) =>
    ApiDefinitionSchema.safeParse({
      ...api,
      captures: [{ name: 'token', from: 'json_path', expression: '$.token', ...fields }],
    });

  it('keeps a capture from a JSONPath, a regex or a header', () => {
    expect(capture({}).data?.captures).toEqual([{ name: 'token', from: 'json_path', expression: '$.token' }]);
    expect(capture({ from: 'regex', expression: 'id=(\\d+)' }).success).toBe(true);
    expect(capture({ from: 'header', expression: 'X-Request-Id' }).success).toBe(true);
  });

  it('refuses a bad variable name, source or expression', () => {
    const messages = (fields: Record<string, unknown>) => {
      const result = capture(fields);
      return result.success ? [] : describeIssues(result.error).map((i) => i.message);
    };
    expect(messages({ name: '1st' })).toEqual([
      'Variable name must start with a letter or _ and hold only letters, digits, _ . -',
    ]);
    expect(messages({ from: 'xpath' })).toEqual(['Capture source must be one of json_path, regex, header']);
    expect(messages({ expression: ' ' })).toEqual(['Enter what to capture']);
    expect(messages({ expression: 'token' })).toEqual(['A JSON path capture starts with $']);
    expect(messages({ from: 'regex', expression: '(' })).toEqual([
      'A regex capture must be a valid regular expression',
    ]);
    expect(messages({ from: 'header', expression: 'X Id' })).toHaveLength(1);
    expect(messages({ expression: '$.a\nb' })).toEqual([
      'Capture expression cannot contain control characters or line breaks',
    ]);
  });

  it("keeps a read script's default, group and match number, and refuses the regex-only ones elsewhere", () => {
    const read = { from: 'regex', expression: '(a)(b)', default: 'NOT_FOUND', group: 2, match_no: 3 };
    expect(capture(read).data?.captures).toEqual([{ name: 'token', ...read }]);
    const messages = (fields: Record<string, unknown>) => {
      const result = capture(fields);
      return result.success ? [] : describeIssues(result.error).map((i) => i.message);
    };
    expect(messages({ default: '' })).toEqual([]);
    expect(messages({ group: 1 })).toEqual(['Only a regex capture takes a group or a match number']);
    expect(messages({ from: 'regex', expression: 'a', match_no: 0 })).toHaveLength(1);
  });
});

describe('a full plan', () => {
  it('survives a round trip through JSON unchanged', () => {
    const plan = FunctionalPlanSchema.parse({
      id: 'p1',
      plan_id: 'p1',
      test_name: 'Checkout flow',
      description: 'Log in,\nthen buy',
      concurrent_users: 5,
      iterations: 20,
      ramp_up_time: 10,
      test_duration: 2,
      think_time: 0,
      test_type: 'api',
      source: 'url_input',
      source_page: 'functional-url-input',
      test_framework: 'taurus',
      status: 'completed',
      user_email: 'qa@example.test',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      apis: [
        {
          id: 1,
          name: 'Log in',
          url: 'https://shop.test/login',
          method: 'post',
          headers: { 'Content-Type': 'application/json' },
          body: '{"user":"a"}',
          params: [{ name: 'v', value: '2' }],
          authorization: { type: 'bearer', token: 't' },
          timeout: 10,
          description: 'Gets a token',
          captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
          validations: [
            { id: 1, type: 'status_code', expected_value: '200' },
            { id: '2', type: 'json_path', expected_value: '$.token != ""', name: 'has token' },
            { type: 'schema', expected_value: '{"type":"object","required":["token"]}' },
          ],
        },
        {
          name: 'Cart',
          url: '{{base}}/cart',
          headers: { Authorization: 'Bearer {{token}}' },
          validations: [{ type: 'response_time', expected_value: '500', enabled: false }],
        },
      ],
    });
    expect(plan.apis[0]?.validations.map((v) => v.id)).toEqual(['1', '2', undefined]);
    const again = FunctionalPlanSchema.parse(JSON.parse(JSON.stringify(plan)));
    expect(again).toEqual(plan);
  });
});

describe("a Postman collection's fields (docs/adr/0029-postman-collections.md)", () => {
  const collection: FunctionalPlanInput = {
    ...minimal,
    apis: [
      {
        ...api,
        group: 'Users / Admin',
        scripts: { test: [{ origin: 'folder Users', source: 'pm.test("ok", () => {});' }] },
      },
    ],
    variables: [{ name: 'base url', value: 'http://127.0.0.1:1' }],
    environment: { name: 'Local', values: [{ name: 'token' }] },
    globals: [{ name: 'g', value: '1' }],
    scripts: { prerequest: [{ origin: 'collection', source: 'pm.variables.set("a", 1);' }] },
    iteration_data: { name: 'rows.csv', format: 'csv', text: 'a,b\n1,2\n' },
    cookie_jar: true,
    follow_redirects: true,
  };

  it('keeps them through a save and a read, with their defaults filled', () => {
    const plan = FunctionalPlanSchema.parse(collection);
    expect(plan.environment?.values).toEqual([{ name: 'token', value: '' }]);
    expect(plan.scripts).toEqual({
      prerequest: [{ origin: 'collection', source: 'pm.variables.set("a", 1);' }],
      test: [],
    });
    expect(plan.apis[0]?.scripts?.prerequest).toEqual([]);
    expect(plan.apis[0]?.group).toBe('Users / Admin');
    expect(FunctionalPlanSchema.parse(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
  });

  it('refuses a variable name with braces, a data file of another format, and too long a script', () => {
    expect(issues({ ...collection, variables: [{ name: 'a}}b', value: '' }] })).toEqual([
      { field: 'variables[0].name', message: 'A variable name cannot hold { or }' },
    ]);
    expect(issues({ ...collection, iteration_data: { name: 'rows.xml', format: 'xml', text: '' } })).toEqual([
      { field: 'iteration_data.format', message: 'Data file format must be one of csv, json' },
    ]);
    const long = 'x'.repeat(100_001);
    const [tooLong] = issues({ ...collection, scripts: { test: [{ source: long }] } });
    expect(tooLong?.field).toBe('scripts.test[0].source');
    expect(tooLong?.message).toMatch(/^Script /);
  });
});
