import { FunctionalValidationSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { type HttpValidation, isHttpValidation, judge, statusMatches } from './judge';
import type { ResponseView } from './response-view';

function rule(type: string, expected_value: string, name = ''): HttpValidation {
  const validation = FunctionalValidationSchema.parse({ type, expected_value, name });
  if (!isHttpValidation(validation)) throw new Error(`${type} is not judged on a response`);
  return validation;
}

function response(overrides: Partial<ResponseView> = {}): ResponseView {
  const body = overrides.body ?? '{"id":42,"user":{"name":"Ada"},"tags":["a","b"]}';
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'abc' },
    body,
    sizeBytes: Buffer.byteLength(body),
    timeMs: 120,
    ...overrides,
  };
}

describe('judging a functional validation rule', () => {
  it('status_code: the status, or what came instead', () => {
    expect(judge(rule('status_code', '200'), response())).toEqual({
      type: 'status_code',
      expected: '200',
      actual: '200',
      passed: true,
      message: 'status 200 as expected',
      // The same sentence as a code and parameters, for screens in another language (docs/adr/0025-phrases.md).
      message_phrase: { code: 'judge.status.passed', params: { actual: '200', expected: '200' } },
    });
    expect(judge(rule('status_code', '200', 'signed in'), response({ status: 401 }))).toEqual({
      type: 'status_code',
      name: 'signed in',
      expected: '200',
      actual: '401',
      passed: false,
      message: 'expected status 200, got 401',
      message_phrase: { code: 'judge.status.failed', params: { actual: '401', expected: '200' } },
    });
  });

  it('status_code: a class such as 2xx holds for every status of it, negated for none', () => {
    expect(judge(rule('status_code', '2xx'), response({ status: 204 }))).toMatchObject({
      expected: '2xx',
      actual: '204',
      passed: true,
      message: 'status 204 as expected',
    });
    expect(judge(rule('status_code', '2XX'), response({ status: 302 }))).toMatchObject({
      expected: '2xx',
      passed: false,
      message: 'expected status 2xx, got 302',
    });
    const notClientError = FunctionalValidationSchema.parse({
      type: 'status_code',
      expected_value: '4xx',
      negate: true,
    }) as HttpValidation;
    expect(judge(notClientError, response({ status: 500 })).passed).toBe(true);
    expect(judge(notClientError, response({ status: 404 }))).toMatchObject({
      passed: false,
      message: 'expected a status other than 4xx, got 404',
    });
  });

  it('statusMatches: a whole status, a class by its first digit, or any of several', () => {
    expect(statusMatches('200', 200)).toBe(true);
    expect(statusMatches('200', 201)).toBe(false);
    expect(statusMatches('2xx', 200)).toBe(true);
    expect(statusMatches('2xx', 299)).toBe(true);
    expect(statusMatches('2xx', 300)).toBe(false);
    expect(statusMatches(' 5XX ', 503)).toBe(true);
    expect(statusMatches('200, 201', 201)).toBe(true);
    expect(statusMatches('2xx,304', 304)).toBe(true);
    expect(statusMatches('200, 201', 204)).toBe(false);
  });

  it('response_time and response_size are upper bounds, the bound itself passing', () => {
    expect(judge(rule('response_time', '120'), response()).passed).toBe(true);
    expect(judge(rule('response_time', '100'), response())).toMatchObject({
      passed: false,
      actual: '120 ms',
      message: 'expected at most 100 ms, took 120 ms',
    });
    const size = response().sizeBytes;
    expect(judge(rule('response_size', String(size)), response()).passed).toBe(true);
    expect(judge(rule('response_size', '10'), response())).toMatchObject({
      passed: false,
      message: `expected at most 10 bytes, got ${size} bytes`,
    });
  });

  it('contains_text looks for the text as written, spaces included', () => {
    expect(judge(rule('contains_text', '"name":"Ada"'), response()).passed).toBe(true);
    expect(judge(rule('contains_text', ' Ada'), response())).toMatchObject({
      passed: false,
      message: 'expected the body to contain " Ada"; it does not',
      actual: response().body,
    });
    const long = 'x'.repeat(500);
    expect(judge(rule('contains_text', 'y'), response({ body: long })).actual).toBe(`${'x'.repeat(200)}…`);
  });

  it('header_value: the name in any case; a media type matches with its parameters', () => {
    expect(judge(rule('header_value', 'Content-Type: application/json'), response())).toMatchObject({
      passed: true,
      actual: 'application/json; charset=utf-8',
    });
    expect(judge(rule('header_value', 'X-Request-Id: abc'), response()).passed).toBe(true);
    expect(judge(rule('header_value', 'X-Request-Id: ab'), response())).toMatchObject({
      passed: false,
      message: 'expected header X-Request-Id: ab, got abc',
    });
    expect(judge(rule('header_value', 'Content-Type: application/js'), response()).passed).toBe(false);
    expect(judge(rule('header_value', 'ETag: "1"'), response())).toMatchObject({
      passed: false,
      actual: null,
      message: 'expected header ETag: "1", but the response has no ETag header',
    });
  });

  it('json_path: exists, ==, != and ~ on the text form of the value', () => {
    expect(judge(rule('json_path', '$.user.name'), response())).toMatchObject({
      passed: true,
      actual: 'Ada',
      message: '$.user.name is Ada',
    });
    expect(judge(rule('json_path', '$.id == 42'), response()).passed).toBe(true);
    expect(judge(rule('json_path', '$.id == 41'), response())).toMatchObject({
      passed: false,
      actual: '42',
      message: 'expected $.id == 41, got 42',
    });
    expect(judge(rule('json_path', '$.id != 41'), response()).passed).toBe(true);
    expect(judge(rule('json_path', '$.id != 42'), response())).toMatchObject({
      passed: false,
      message: 'expected $.id != 42, but it is',
    });
    expect(judge(rule('json_path', '$.tags ~ ^\\["a"'), response()).passed).toBe(true);
    expect(judge(rule('json_path', '$.user.name ~ ^B'), response())).toMatchObject({
      passed: false,
      message: 'expected $.user.name to match /^B/, got Ada',
    });
    expect(judge(rule('json_path', '$.missing'), response())).toMatchObject({
      passed: false,
      actual: null,
      message: 'expected $.missing in the body; it is not there',
    });
    expect(judge(rule('json_path', '$.id'), response({ body: '<html>oops</html>' }))).toMatchObject({
      passed: false,
      actual: '<html>oops</html>',
      message: 'expected JSON to read $.id, but the body is not JSON',
    });
  });

  it('with no response every rule fails, saying why in its own terms', () => {
    expect(judge(rule('status_code', '200'), null, 'the connection was refused')).toEqual({
      type: 'status_code',
      expected: '200',
      actual: null,
      passed: false,
      message: 'expected status 200, but the connection was refused',
      message_phrase: {
        code: 'judge.noResponse',
        params: {
          expectation: { code: 'expect.status', params: { expected: '200' } },
          failure: 'the connection was refused',
        },
      },
    });
    expect(judge(rule('response_time', '500'), null, 'it timed out after 30 s').message).toBe(
      'expected an answer within 500 ms, but it timed out after 30 s',
    );
    expect(judge(rule('json_path', '$.id == 1'), null).message).toBe(
      'expected $.id == 1 in the body, but nothing came back',
    );
  });

  it('does not judge rules of other kinds', () => {
    expect(
      isHttpValidation(FunctionalValidationSchema.parse({ type: 'page_title', expected_value: 'Home' })),
    ).toBe(false);
    expect(isHttpValidation(FunctionalValidationSchema.parse({ type: 'schema', expected_value: '{}' }))).toBe(
      false,
    );
  });
});

/** A rule with a read Taurus script's extras (negate, subject). */
function scriptRule(fields: Record<string, unknown>): HttpValidation {
  const validation = FunctionalValidationSchema.parse(fields);
  if (!isHttpValidation(validation)) throw new Error(`${validation.type} is not judged on a response`);
  return validation;
}

describe("judging a read Taurus script's rules", () => {
  const xml = '<order id="7"><status>saved</status><line>a</line><line>b</line></order>';

  it('regex: found anywhere in the body, quoting what was searched', () => {
    expect(judge(scriptRule({ type: 'regex', expected_value: '"id":\\d+' }), response())).toEqual({
      type: 'regex',
      expected: '"id":\\d+',
      actual: response().body,
      passed: true,
      message: 'the body matches /"id":\\d+/',
      message_phrase: {
        code: 'judge.matches.passed',
        params: { subject: { code: 'subject.body', params: {} }, subjects: 1, expected: '"id":\\d+' },
      },
    });
    expect(judge(scriptRule({ type: 'regex', expected_value: '^\\[' }), response())).toMatchObject({
      passed: false,
      message: 'expected the body to match /^\\[/; it does not',
    });
    const long = 'x'.repeat(500);
    expect(judge(scriptRule({ type: 'regex', expected_value: 'y' }), response({ body: long })).actual).toBe(
      `${'x'.repeat(200)}…`,
    );
  });

  it('subject: the header lines as sent, or the status code', () => {
    const headerLines = 'Content-Type: application/json; charset=utf-8\nX-RateLimit-Limit: 100';
    const byHeaders = scriptRule({
      type: 'regex',
      expected_value: 'X-RateLimit-Limit: \\d+',
      subject: 'headers',
    });
    expect(judge(byHeaders, response({ headerLines }))).toMatchObject({
      passed: true,
      actual: headerLines,
      message: 'the headers match /X-RateLimit-Limit: \\d+/',
    });
    // Without the lines as sent, they are written from the lowercased map.
    expect(judge(byHeaders, response())).toMatchObject({
      passed: false,
      actual: 'content-type: application/json; charset=utf-8\nx-request-id: abc',
      message: 'expected the headers to match /X-RateLimit-Limit: \\d+/; they do not',
    });
    const status = scriptRule({ type: 'contains_text', expected_value: '20', subject: 'status_code' });
    expect(judge(status, response({ status: 201 }))).toMatchObject({
      passed: true,
      actual: '201',
      message: 'the status code contains "20"',
    });
    expect(judge(status, response({ status: 404 }))).toMatchObject({
      passed: false,
      message: 'expected the status code to contain "20"; it does not',
    });
    // The body is not searched when the subject is the headers.
    expect(
      judge(scriptRule({ type: 'contains_text', expected_value: 'Ada', subject: 'headers' }), response())
        .passed,
    ).toBe(false);
  });

  it('negate turns contains_text and regex round, and says so', () => {
    const notAda = scriptRule({ type: 'contains_text', expected_value: 'Ada', negate: true });
    expect(judge(notAda, response())).toMatchObject({
      passed: false,
      message: 'expected the body not to contain "Ada", but it does',
    });
    expect(judge(notAda, response({ body: '{"name":"Bo"}' }))).toMatchObject({
      passed: true,
      message: 'the body does not contain "Ada"',
    });
    const noError = scriptRule({ type: 'regex', expected_value: 'error', negate: true, subject: 'headers' });
    expect(judge(noError, response({ headerLines: 'X-Status: error' }))).toMatchObject({
      passed: false,
      message: 'expected the headers not to match /error/, but they do',
    });
    expect(judge(noError, response({ headerLines: 'X-Ok: yes' }))).toMatchObject({
      passed: true,
      message: 'the headers do not match /error/',
    });
    expect(judge(notAda, null, 'the connection was refused')).toMatchObject({
      passed: false,
      message: 'expected the body not to contain "Ada", but the connection was refused',
    });
  });

  it('negate on status_code, header_value and json_path', () => {
    const not500 = scriptRule({ type: 'status_code', expected_value: '500', negate: true });
    expect(judge(not500, response())).toMatchObject({ passed: true, message: 'status 200, not 500' });
    expect(judge(not500, response({ status: 500 }))).toMatchObject({
      passed: false,
      message: 'expected a status other than 500, got 500',
    });
    const notJson = scriptRule({
      type: 'header_value',
      expected_value: 'Content-Type: application/json',
      negate: true,
    });
    expect(judge(notJson, response())).toMatchObject({
      passed: false,
      message:
        'expected header Content-Type not to be application/json, but it is application/json; charset=utf-8',
    });
    expect(judge(notJson, response({ headers: { 'content-type': 'text/html' } }))).toMatchObject({
      passed: true,
      message: 'header Content-Type is text/html, not application/json',
    });
    expect(judge(notJson, response({ headers: {} })).passed).toBe(true);
    const notId42 = scriptRule({ type: 'json_path', expected_value: '$.id == 42', negate: true });
    expect(judge(notId42, response())).toMatchObject({
      passed: false,
      message: 'expected $.id not to be 42, but it is',
    });
    expect(judge(notId42, response({ body: '{"id":7}' }))).toMatchObject({
      passed: true,
      message: '$.id is 7, not 42',
    });
    const noMissing = scriptRule({ type: 'json_path', expected_value: '$.error', negate: true });
    expect(judge(noMissing, response())).toMatchObject({
      passed: true,
      message: '$.error is not in the body',
    });
    expect(judge(noMissing, response({ body: '{"error":"boom"}' }))).toMatchObject({
      passed: false,
      message: 'expected $.error not to be in the body, but it is boom',
    });
    // A body that cannot be read fails whether or not the rule is negated.
    expect(judge(noMissing, response({ body: 'oops' }))).toMatchObject({
      passed: false,
      message: 'expected JSON to read $.error, but the body is not JSON',
    });
  });

  it('xpath: a node selected or a true value on an XML body', () => {
    expect(
      judge(scriptRule({ type: 'xpath', expected_value: '/order/line' }), response({ body: xml })),
    ).toEqual({
      type: 'xpath',
      expected: '/order/line',
      actual: 'a',
      passed: true,
      message: '/order/line selects 2 nodes, the first "a"',
      message_phrase: {
        code: 'judge.xpath.seen',
        params: {
          expected: '/order/line',
          seen: { code: 'xpath.selects', params: { count: 2, first: 'a' } },
        },
      },
    });
    expect(
      judge(
        scriptRule({ type: 'xpath', expected_value: "string(/order/status) = 'saved'" }),
        response({ body: xml }),
      ),
    ).toMatchObject({ passed: true, actual: 'true', message: "string(/order/status) = 'saved' is true" });
    expect(
      judge(scriptRule({ type: 'xpath', expected_value: '/order/total' }), response({ body: xml })),
    ).toMatchObject({
      passed: false,
      actual: null,
      message: 'expected /order/total to select a node or be true; it selects no node',
    });
    expect(
      judge(scriptRule({ type: 'xpath', expected_value: '/order/@id = 8' }), response({ body: xml })),
    ).toMatchObject({
      passed: false,
      message: 'expected /order/@id = 8 to select a node or be true; it is false',
    });
    expect(judge(scriptRule({ type: 'xpath', expected_value: '/order/status' }), response())).toMatchObject({
      passed: false,
      actual: response().body,
      message:
        'expected an XML body to evaluate /order/status, but the body is not XML (missing root element)',
    });
    expect(
      judge(scriptRule({ type: 'xpath', expected_value: '/order[' }), response({ body: xml })),
    ).toMatchObject({
      passed: false,
      actual: null,
    });
  });

  it('xpath negated passes when nothing is selected, and not on a body that is not XML', () => {
    const noError = scriptRule({ type: 'xpath', expected_value: '//error', negate: true });
    expect(judge(noError, response({ body: xml }))).toMatchObject({
      passed: true,
      message: '//error selects no node',
    });
    expect(judge(noError, response({ body: '<r><error>boom</error></r>' }))).toMatchObject({
      passed: false,
      actual: 'boom',
      message: 'expected //error to select no node and not be true, but it selects 1 node, the first "boom"',
    });
    expect(judge(noError, response()).passed).toBe(false);
    expect(judge(noError, null).message).toBe(
      'expected //error to select nothing in an XML body, but nothing came back',
    );
  });
});

describe("judging a performance plan assertion's rules: equals, and the json and xml subjects", () => {
  const xml = '<order id="7"><status>saved</status></order>';

  it('equals: the whole text, said with both sides', () => {
    const rule = scriptRule({ type: 'equals', expected_value: 'Not Found' });
    expect(judge(rule, response({ body: 'Not Found' }))).toMatchObject({
      type: 'equals',
      passed: true,
      actual: 'Not Found',
      message: 'the body is "Not Found"',
    });
    expect(judge(rule, response({ body: 'Not Found!' }))).toMatchObject({
      passed: false,
      message: 'expected the body to be "Not Found"; it is "Not Found!"',
    });
    const negated = scriptRule({
      type: 'equals',
      expected_value: '500',
      subject: 'status_code',
      negate: true,
    });
    expect(judge(negated, response())).toMatchObject({
      passed: true,
      message: 'the status code is "200", not "500"',
    });
    expect(judge(negated, response({ status: 500 }))).toMatchObject({
      passed: false,
      message: 'expected the status code not to be "500", but it is',
    });
  });

  it('json: the first value the path finds, a JSON literal compared as a value, nothing found as empty text', () => {
    const id = (expected_value: string, negate?: boolean) =>
      scriptRule({
        type: 'equals',
        expected_value,
        subject: 'json',
        path: '$.id',
        ...(negate ? { negate } : {}),
      });
    expect(judge(id('42'), response())).toMatchObject({
      passed: true,
      actual: '42',
      message: 'the value at $.id is 42',
    });
    expect(judge(id('"42"'), response())).toMatchObject({
      passed: false,
      message: 'expected the value at $.id to be "42"; it is 42',
    });
    const missing = (type: string, expected_value: string, negate?: boolean) =>
      scriptRule({ type, expected_value, subject: 'json', path: '$.nope', ...(negate ? { negate } : {}) });
    expect(judge(missing('equals', 'x', true), response())).toMatchObject({
      passed: true,
      actual: null,
      message: 'the value at $.nope is nothing (the path matches nothing), not "x"',
    });
    expect(judge(missing('regex', '^$'), response())).toMatchObject({ passed: true });
    expect(judge(missing('equals', 'null'), response())).toMatchObject({ passed: false });
    const name = scriptRule({
      type: 'contains_text',
      expected_value: 'Ad',
      subject: 'json',
      path: 'user.name',
    });
    expect(judge(name, response())).toMatchObject({
      passed: true,
      message: 'the value at user.name contains "Ad"',
    });
    // A body that is not JSON fails the rule, negated or not.
    expect(judge(missing('equals', 'x', true), response({ body: '<html>' }))).toMatchObject({
      passed: false,
      message: 'expected JSON to read $.nope, but the body is not JSON',
    });
  });

  it('xml: the text of the first node the XPath selects, or its value', () => {
    const status = (type: string, expected_value: string, path = '/order/status', negate?: boolean) =>
      scriptRule({ type, expected_value, subject: 'xml', path, ...(negate ? { negate } : {}) });
    expect(judge(status('equals', 'saved'), response({ body: xml }))).toMatchObject({
      passed: true,
      message: 'the text at /order/status is "saved"',
    });
    expect(judge(status('regex', '^s'), response({ body: xml }))).toMatchObject({ passed: true });
    expect(judge(status('equals', '7', '/order/@id'), response({ body: xml }))).toMatchObject({
      passed: true,
    });
    expect(judge(status('equals', 'x', '/order/none', true), response({ body: xml }))).toMatchObject({
      passed: true,
    });
    expect(judge(status('equals', 'x', '/order/none', true), response())).toMatchObject({
      passed: false,
      message: expect.stringContaining('but the body is not XML') as unknown,
    });
    expect(judge(status('equals', 'x', '//['), response({ body: xml }))).toMatchObject({
      passed: false,
      message: expect.stringContaining('"//[" is not an XPath 1.0 query') as unknown,
    });
  });

  it('says what was expected when nothing came back', () => {
    const rule = scriptRule({
      type: 'equals',
      expected_value: '7',
      subject: 'json',
      path: '$.id',
      negate: true,
    });
    expect(judge(rule, null).message).toBe('expected the value at $.id not to be 7, but nothing came back');
  });
});

describe('judging a json_path rule with a filter (issue #27)', () => {
  const roles = response({ body: '{"roles":["admin","qa"],"a":[{"x":"y","z":1},{"x":"w","z":2}]}' });

  it.each([
    ["$.roles[?(@=='qa')]", true],
    ["$.roles[?(@=='ops')]", false],
    ["$.a[?(@.x == 'y')].z == 1", true],
    ["$.a[?(@.x == 'w' && @.z > 1)].z == 2", true],
    ["$.a[?(@.x == 'q' || @.z == 2)].x == w", true],
    ["$.a[?(@.x == 'y')].z == 2", false],
  ])('%s judges (passed: %s)', (expected, passed) => {
    expect(judge(rule('json_path', expected), roles).passed).toBe(passed);
  });

  it('fails a rule that cannot be judged, naming the path and the reason, without throwing', () => {
    expect(judge(rule('json_path', '$.a[?(@.b==]', 'has b'), roles)).toMatchObject({
      name: 'has b',
      passed: false,
      actual: null,
      message:
        '$.a[?(@.b==] cannot be judged: $.a[?(@.b==] does not close: ] at character 12 comes before its ( is closed',
    });
    expect(judge(rule('json_path', '$.a[?(@.x =~ /y/)]'), roles).message).toBe(
      '$.a[?(@.x =~ /y/)] cannot be judged: = is not a comparison in a JSONPath filter: write == to compare, /re/.test(@.x) to match a pattern',
    );
  });
});
