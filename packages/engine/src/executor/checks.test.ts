import { perfAssertionRule, type FunctionalValidation, type UrlEntry } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { ReusedResponseView } from '../call/response-view';
import { compileAssertion as compileRule, compileExtraction } from './checks';
import { classifyError, KIND } from './http-error';

type AssertionType = UrlEntry['assertionType'];
type AssertionOperator = UrlEntry['assertionOperator'];
interface AssertionSpec {
  type: AssertionType;
  path: string;
  operator: AssertionOperator;
  expected: string;
}

/** An entry's assertion fields as the rule the executor compiles (compile.ts: perfAssertionRule). */
function ruleOf(spec: AssertionSpec): FunctionalValidation {
  const rule = perfAssertionRule({
    assertionType: spec.type,
    assertionPath: spec.path,
    assertionOperator: spec.operator,
    assertionValue: spec.expected,
  });
  if (rule === null) throw new Error('the entry asserts nothing');
  return rule;
}

const compileAssertion = (spec: AssertionSpec, where: string) => compileRule(ruleOf(spec), where);

function response(status: number, body: string): ReusedResponseView {
  const r = new ReusedResponseView();
  r.reset(status, Buffer.from(body));
  return r;
}

const JSON_BODY = JSON.stringify({ data: { name: 'Ada Lovelace', id: 42, tags: ['a', 'b'] } });
const XML_BODY = '<user><name>Ada Lovelace</name><id>42</id></user>';

/** [type, path, body, status, operator, expected that holds, expected that does not]. */
const CASES: [AssertionType, string, string, number, AssertionOperator, string, string][] = [
  ['status', '', 'x', 201, 'equals', '201', '200'],
  ['status', '', 'x', 201, 'not_equals', '200', '201'],
  ['status', '', 'x', 201, 'contains', '20', '30'],
  ['status', '', 'x', 201, 'regex', '^2\\d\\d$', '^4'],
  ['text', '', 'hello world', 200, 'equals', 'hello world', 'hello'],
  ['text', '', 'hello world', 200, 'not_equals', 'hello', 'hello world'],
  ['text', '', 'hello world', 200, 'contains', 'lo wo', 'bye'],
  ['text', '', 'hello world', 200, 'regex', 'w.rld$', '^world'],
  ['json', '$.data.name', JSON_BODY, 200, 'equals', 'Ada Lovelace', 'Ada'],
  ['json', '$.data.id', JSON_BODY, 200, 'not_equals', '41', '42'],
  ['json', '$.data.tags', JSON_BODY, 200, 'contains', '"b"', '"c"'],
  ['json', '$..name', JSON_BODY, 200, 'regex', '^Ada', 'Lovelace$x'],
  ['xml', '/user/name', XML_BODY, 200, 'equals', 'Ada Lovelace', 'Ada'],
  ['xml', '/user/id', XML_BODY, 200, 'not_equals', '41', '42'],
  ['xml', '//name', XML_BODY, 200, 'contains', 'Love', 'Hate'],
  ['xml', 'string(/user/id)', XML_BODY, 200, 'regex', '^\\d+$', '^[a-z]+$'],
];

/** The assertion's verdict as the executor records it: undefined when it holds, else the error sample. */
const check =
  (spec: AssertionSpec, where: string) =>
  (r: ReusedResponseView): string | undefined => {
    const assertion = compileAssertion(spec, where);
    return assertion.holds(r) ? undefined : assertion.failure(r);
  };

describe('assertions', () => {
  it.each(CASES)('%s %s %s: holds and fails as expected', (type, path, body, status, operator, good, bad) => {
    const r = response(status, body);
    expect(check({ type, path, operator, expected: good }, 't')(r)).toBeUndefined();
    const failed = check({ type, path, operator, expected: bad }, 't')(response(status, body));
    expect(failed).toMatch(/^assertion failed/);
  });

  it('compares a path with no match as empty text, and a non-JSON body as a failure', () => {
    expect(
      check({ type: 'json', path: '$.nope', operator: 'equals', expected: 'x' }, 't')(response(200, '{}')),
    ).toMatch(/""/);
    expect(
      check(
        { type: 'json', path: '$.nope', operator: 'not_equals', expected: 'x' },
        't',
      )(response(200, '{}')),
    ).toBeUndefined();
    expect(
      check({ type: 'json', path: '$.a', operator: 'equals', expected: 'x' }, 't')(response(200, '<html>')),
    ).toMatch(/not JSON/);
  });

  it("words an error sample in the entry's own terms, whatever rule the assertion is read as", () => {
    expect(
      check({ type: 'status', path: '', operator: 'equals', expected: ' 200' }, 't')(response(201, 'x')),
    ).toBe('assertion failed: status "201" equals "200" is false');
    expect(
      check(
        { type: 'text', path: '', operator: 'not_equals', expected: 'hello' },
        't',
      )(response(200, 'hello')),
    ).toBe('assertion failed: body "hello" not equals "hello" is false');
    expect(
      check(
        { type: 'xml', path: '/user/name', operator: 'equals', expected: 'Ada' },
        't',
      )(response(200, XML_BODY)),
    ).toBe('assertion failed: /user/name "Ada Lovelace" equals "Ada" is false');
    expect(
      check(
        { type: 'json', path: 'data.id', operator: 'not_equals', expected: '42' },
        't',
      )(response(200, JSON_BODY)),
    ).toBe('assertion failed: data.id 42 not equals 42 is false');
  });

  it('refuses an invalid regular expression before the run', () => {
    expect(() =>
      compileAssertion({ type: 'text', path: '', operator: 'regex', expected: '(' }, 'urls[0]'),
    ).toThrow(/urls\[0\].*invalid regular expression/);
  });
});

describe('extraction', () => {
  const extract = (type: 'json' | 'regex' | 'text' | 'xml', expression: string, body: string) =>
    compileExtraction({ type, expression }, 't')(response(200, body));

  it('json takes the first JSONPath match, strings as-is and the rest as JSON', () => {
    expect(extract('json', '$.data.name', JSON_BODY)).toBe('Ada Lovelace');
    expect(extract('json', '$.data.id', JSON_BODY)).toBe('42');
    expect(extract('json', '$.data.tags[-1]', JSON_BODY)).toBe('b');
    expect(extract('json', '$..id', JSON_BODY)).toBe('42');
    expect(extract('json', '$.missing', JSON_BODY)).toBeUndefined();
  });

  it('regex takes the first capture group, or the whole match without one', () => {
    expect(extract('regex', 'id=(\\d+)', 'x id=17 id=18')).toBe('17');
    expect(extract('regex', '\\d+', 'abc 99')).toBe('99');
    expect(extract('regex', 'zzz(\\d)', 'abc')).toBeUndefined();
  });

  it('text takes what lies between the boundaries around *, or the rest of the line', () => {
    expect(extract('text', 'token=*;', 'a token=XYZ; b')).toBe('XYZ');
    expect(extract('text', 'Location: ', 'HTTP\nLocation: /next\nOther')).toBe('/next');
    expect(extract('text', '', 'whole')).toBe('whole');
    expect(extract('text', 'nope=*;', 'a token=XYZ; b')).toBeUndefined();
  });

  it('xml takes the text of the first XPath match', () => {
    expect(extract('xml', '/user/name', XML_BODY)).toBe('Ada Lovelace');
    expect(extract('xml', '//id', XML_BODY)).toBe('42');
    expect(extract('xml', '/user/none', XML_BODY)).toBeUndefined();
  });
});

describe('error kinds', () => {
  const e = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });
  it('maps network failures to their kind', () => {
    expect(classifyError(e('ECONNREFUSED'))).toBe(KIND.connect);
    expect(classifyError(e('ENOTFOUND'))).toBe(KIND.dns);
    expect(classifyError(e('UND_ERR_CONNECT_TIMEOUT'))).toBe(KIND.timeout);
    expect(classifyError(e('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe(KIND.tls);
    expect(classifyError(e('ERR_SSL_WRONG_VERSION_NUMBER'))).toBe(KIND.tls);
    expect(classifyError(e('UND_ERR_SOCKET', e('ECONNRESET')))).toBe(KIND.connect);
    expect(classifyError(new Error('weird'))).toBe(KIND.other);
  });
});
