import { describe, expect, it } from 'vitest';
import { describeIssues } from '../migrate-plan';
import {
  FunctionalValidationSchema,
  ValidationDetailSchema,
  defaultValidation,
  effectiveValidations,
  expectedValueProblem,
  parseJsonPathRule,
} from './validation';

function refusal(input: unknown): string[] {
  const result = FunctionalValidationSchema.safeParse(input);
  if (result.success) throw new Error('expected the validation to be refused');
  return describeIssues(result.error).map((issue) => `${issue.field}: ${issue.message}`);
}

const accepts = (type: string, expected_value: string) =>
  FunctionalValidationSchema.parse({ type, expected_value }).expected_value;

describe('FunctionalValidationSchema', () => {
  it('defaults to status_code 200, enabled', () => {
    expect(FunctionalValidationSchema.parse({})).toEqual(defaultValidation());
    expect(defaultValidation()).toEqual({
      name: '',
      type: 'status_code',
      expected_value: '200',
      description: '',
      enabled: true,
    });
  });

  it('writes the id as a string', () => {
    expect(FunctionalValidationSchema.parse({ id: 7 }).id).toBe('7');
  });

  it('refuses a blank expected value for every type but a left-out status', () => {
    expect(refusal({ type: 'contains_text', expected_value: '  ' })).toEqual([
      'expected_value: Enter the expected value',
    ]);
    expect(refusal({ type: 'json_path' })).toEqual(['expected_value: Enter the expected value']);
    expect(refusal({ type: 'status_code', expected_value: '' })).toEqual([
      'expected_value: Enter the expected value',
    ]);
  });

  it('refuses an unknown type', () => {
    expect(refusal({ type: 'css_selector', expected_value: 'x' })[0]).toMatch(
      /^type: Validation type must be one of status_code/,
    );
  });

  it('status_code: a whole status from 100 to 599, a class from 1xx to 5xx, or several', () => {
    expect(accepts('status_code', ' 201 ')).toBe('201');
    expect(accepts('status_code', '100')).toBe('100');
    expect(accepts('status_code', '599')).toBe('599');
    expect(accepts('status_code', '2xx')).toBe('2xx');
    expect(accepts('status_code', ' 4XX ')).toBe('4xx');
    expect(accepts('status_code', '200, 201,204')).toBe('200, 201,204');
    expect(accepts('status_code', '2XX, 304')).toBe('2xx, 304');
    for (const bad of ['99', '600', '0xx', '6xx', '2x', '20.0', '-200', '200,', '200 201', '200, 6xx'])
      expect(refusal({ type: 'status_code', expected_value: bad })).toEqual([
        'expected_value: Expected status must be a whole number from 100 to 599, a class such as 2xx, or several of them: 200, 201',
      ]);
  });

  it('response_time: whole milliseconds from 1, an upper bound', () => {
    expect(accepts('response_time', '1')).toBe('1');
    expect(accepts('response_time', '3600000')).toBe('3600000');
    for (const bad of ['0', '3600001', '1.5', '500ms'])
      expect(refusal({ type: 'response_time', expected_value: bad })).toHaveLength(1);
  });

  it('response_size: whole bytes from 0, an upper bound', () => {
    expect(accepts('response_size', '0')).toBe('0');
    expect(accepts('response_size', '1000000000')).toBe('1000000000');
    for (const bad of ['1000000001', '1KB', '-1'])
      expect(refusal({ type: 'response_size', expected_value: bad })).toHaveLength(1);
  });

  it('json_path: a path alone, or compared with ==, != or ~', () => {
    expect(accepts('json_path', '$.user.name')).toBe('$.user.name');
    expect(accepts('json_path', '$.items[0].id == 3')).toBe('$.items[0].id == 3');
    expect(accepts('json_path', '$.state != "closed"')).toBe('$.state != "closed"');
    expect(accepts('json_path', '$.email ~ ^.+@.+$')).toBe('$.email ~ ^.+@.+$');
    expect(refusal({ type: 'json_path', expected_value: 'user.name' })).toEqual([
      'expected_value: A JSON path starts with $, optionally followed by == value, != value or ~ regex',
    ]);
    expect(refusal({ type: 'json_path', expected_value: '$.a ~ (' })).toEqual([
      'expected_value: The text after ~ must be a valid regular expression',
    ]);
    expect(parseJsonPathRule('$.a == x y')).toEqual({ path: '$.a', operator: '==', value: 'x y' });
    expect(parseJsonPathRule('$.a')).toEqual({ path: '$.a', operator: null, value: null });
  });

  it('contains_text: any text, its spaces kept', () => {
    expect(accepts('contains_text', ' ok ')).toBe(' ok ');
  });

  it('header_value: Name: value', () => {
    expect(accepts('header_value', 'Content-Type: application/json')).toBe('Content-Type: application/json');
    expect(accepts('header_value', 'X-Empty:')).toBe('X-Empty:');
    for (const bad of ['Content-Type', ': x', 'Bad Name: x'])
      expect(refusal({ type: 'header_value', expected_value: bad })).toEqual([
        'expected_value: Expected header must be written Name: value',
      ]);
  });

  it('schema: a JSON Schema as a JSON object', () => {
    expect(accepts('schema', '{"type":"object"}')).toBe('{"type":"object"}');
    for (const bad of ['[1]', '"x"', '{type:object}'])
      expect(refusal({ type: 'schema', expected_value: bad })).toEqual([
        'expected_value: Expected schema must be a JSON Schema written as a JSON object',
      ]);
  });

  it('UI types: element_exists and page_title take any text', () => {
    expect(accepts('element_exists', '#login')).toBe('#login');
    expect(accepts('page_title', 'Home')).toBe('Home');
  });

  it('refuses control characters in the name and the URL, and keeps line breaks in the description', () => {
    expect(refusal({ name: 'a\tb' })).toEqual([
      'name: Validation name cannot contain control characters or line breaks',
    ]);
    expect(refusal({ url: 'http://a.test/\u0000' })).toEqual([
      'url: URL cannot contain control characters or line breaks',
    ]);
    expect(FunctionalValidationSchema.parse({ description: 'a\nb' }).description).toBe('a\nb');
  });

  it("reads a script's regex and xpath rules, and keeps a pattern's spaces", () => {
    expect(accepts('regex', ' a+b ')).toBe(' a+b ');
    expect(refusal({ type: 'regex', expected_value: '(' })).toEqual([
      'expected_value: Expected value must be a valid regular expression',
    ]);
    expect(accepts('xpath', "/html/head/title/text()='My title'")).toBe("/html/head/title/text()='My title'");
    expect(refusal({ type: 'xpath', expected_value: ' ' })).toEqual([
      'expected_value: Enter the expected value',
    ]);
  });

  it('keeps negate and subject where they mean something, and leaves them out otherwise', () => {
    expect(
      FunctionalValidationSchema.parse({ type: 'contains_text', expected_value: 'x' }),
    ).not.toHaveProperty('negate');
    expect(
      FunctionalValidationSchema.parse({
        type: 'regex',
        expected_value: '^2',
        subject: 'status_code',
        negate: true,
      }),
    ).toMatchObject({ type: 'regex', expected_value: '^2', subject: 'status_code', negate: true });
    expect(refusal({ type: 'json_path', expected_value: '$.a', subject: 'headers' })).toEqual([
      'subject: Only contains_text, regex and equals rules read a subject other than the body',
    ]);
    expect(refusal({ type: 'response_time', expected_value: '100', negate: true })).toEqual([
      'negate: Only status_code, json_path, contains_text, header_value, regex, xpath and equals rules can be negated',
    ]);
    expect(refusal({ type: 'regex', expected_value: 'a', subject: 'url' })).toEqual([
      'subject: Subject must be one of body, headers, status_code, json, xml',
    ]);
  });

  it("equals: the subject's whole text, kept as written; json and xml subjects need their path", () => {
    expect(accepts('equals', ' Not Found ')).toBe(' Not Found ');
    expect(refusal({ type: 'equals', expected_value: '  ' })).toEqual([
      'expected_value: Enter the expected value',
    ]);
    expect(
      FunctionalValidationSchema.parse({
        type: 'equals',
        expected_value: '7',
        subject: 'json',
        path: ' $.user.id ',
        negate: true,
      }),
    ).toMatchObject({
      type: 'equals',
      expected_value: '7',
      subject: 'json',
      path: '$.user.id',
      negate: true,
    });
    expect(
      FunctionalValidationSchema.parse({
        type: 'regex',
        expected_value: '^a',
        subject: 'xml',
        path: '//name',
      }),
    ).toMatchObject({ subject: 'xml', path: '//name' });
    expect(refusal({ type: 'equals', expected_value: 'x', subject: 'json' })).toEqual([
      'path: A json subject needs a JSONPath and an xml subject an XPath: enter the path',
    ]);
    expect(refusal({ type: 'contains_text', expected_value: 'x', subject: 'xml', path: ' ' })).toEqual([
      'path: A json subject needs a JSONPath and an xml subject an XPath: enter the path',
    ]);
    expect(refusal({ type: 'equals', expected_value: 'x', path: '$.a' })).toEqual([
      'path: Only a json or xml subject reads a path',
    ]);
    expect(refusal({ type: 'json_path', expected_value: '$.a', subject: 'json', path: '$.a' })).toEqual([
      'subject: Only contains_text, regex and equals rules read a subject other than the body',
    ]);
  });

  it('keeps the script screen fields', () => {
    expect(
      FunctionalValidationSchema.parse({ api_name: 'Users', url: 'https://a.test', method: 'get' }),
    ).toMatchObject({ api_name: 'Users', url: 'https://a.test', method: 'GET' });
  });
});

describe('effectiveValidations', () => {
  it('judges a call without enabled rules by status 200', () => {
    expect(effectiveValidations([])).toEqual([defaultValidation()]);
    const off = FunctionalValidationSchema.parse({
      type: 'contains_text',
      expected_value: 'x',
      enabled: false,
    });
    expect(effectiveValidations([off])).toEqual([defaultValidation()]);
    const on = { ...off, enabled: true };
    expect(effectiveValidations([off, on])).toEqual([on]);
  });

  it('adds no rule when test scripts judge the call, or when the plan turned the default off', () => {
    expect(effectiveValidations([], true)).toEqual([]);
    expect(effectiveValidations([], false, false)).toEqual([]);
    const on = FunctionalValidationSchema.parse({ type: 'contains_text', expected_value: 'x' });
    expect(effectiveValidations([on], false, false)).toEqual([on]);
  });
});

describe('ValidationDetailSchema', () => {
  it('holds a judged rule with a message for a person', () => {
    const detail = {
      type: 'status_code',
      expected: '200',
      actual: '401',
      passed: false,
      message: 'expected status 200, got 401',
    };
    expect(ValidationDetailSchema.parse(detail)).toEqual(detail);
    expect(
      ValidationDetailSchema.parse({
        ...detail,
        type: 'schema',
        actual: null,
        violations: [{ path: '/id', message: 'must be integer' }],
      }).violations,
    ).toHaveLength(1);
  });
});

describe('parseJsonPathRule: a quoted key may hold a blank', () => {
  it.each([
    ["$['first name'] == Ada", { path: "$['first name']", operator: '==', value: 'Ada' }],
    ["$.items[?(@.n=='a b')].id", { path: "$.items[?(@.n=='a b')].id", operator: null, value: null }],
    ['$.a == a b', { path: '$.a', operator: '==', value: 'a b' }],
  ])('%s', (expected, rule) => {
    expect(parseJsonPathRule(expected)).toEqual(rule);
  });

  it('refuses what follows a quoted path that is no comparison', () => {
    expect(parseJsonPathRule("$['a b'] x")).toBeNull();
  });
});

describe('parseJsonPathRule: a filter may hold blanks (issue #27)', () => {
  it.each([
    ["$.a[?(@.x == 'y')].z == 1", { path: "$.a[?(@.x == 'y')].z", operator: '==', value: '1' }],
    [
      "$.a[?(@.x == 'y' && (@.z > 1 || @.z < 0))] != 2",
      { path: "$.a[?(@.x == 'y' && (@.z > 1 || @.z < 0))]", operator: '!=', value: '2' },
    ],
    [
      '$..book[?(@.price < 10)].title ~ ^A',
      { path: '$..book[?(@.price < 10)].title', operator: '~', value: '^A' },
    ],
    ["$.roles[?(@=='qa')]", { path: "$.roles[?(@=='qa')]", operator: null, value: null }],
  ])('%s', (expected, rule) => {
    expect(parseJsonPathRule(expected)).toEqual(rule);
    expect(accepts('json_path', expected)).toBe(expected);
  });

  it('reads a path whose brackets never close as the whole path, for the JSONPath check to refuse', () => {
    expect(parseJsonPathRule('$.a[?(@.b== 1')).toEqual({
      path: '$.a[?(@.b== 1',
      operator: null,
      value: null,
    });
  });

  it('refuses what follows a closed filter that is no comparison', () => {
    expect(parseJsonPathRule("$.a[?(@.x == 'y')] and more")).toBeNull();
  });
});

describe('expectedValueProblem: a json_path rule whose path cannot be judged (issue #27)', () => {
  it('is refused in a form with its reason, and still read from a stored plan', () => {
    expect(expectedValueProblem('json_path', '$.a[?(@.b==]')).toBe(
      '$.a[?(@.b==] does not close: ] at character 12 comes before its ( is closed',
    );
    expect(expectedValueProblem('json_path', '$.a[?(@.x =~ /y/)]')).toContain(
      '= is not a comparison in a JSONPath filter',
    );
    expect(expectedValueProblem('json_path', "$.roles[?(@=='qa')]")).toBeUndefined();
    expect(expectedValueProblem('json_path', '$.a[?(@.b==]', 'stored')).toBeUndefined();
    expect(accepts('json_path', '$.a[?(@.b==]')).toBe('$.a[?(@.b==]');
  });
});
