import { FunctionalValidationSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { type HttpValidation, isHttpValidation, judge, type ObservedResponse } from './judge';

function rule(type: string, expected_value: string, name = ''): HttpValidation {
  const validation = FunctionalValidationSchema.parse({ type, expected_value, name });
  if (!isHttpValidation(validation)) throw new Error(`${type} is not judged on a response`);
  return validation;
}

function response(overrides: Partial<ObservedResponse> = {}): ObservedResponse {
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
    });
    expect(judge(rule('status_code', '200', 'signed in'), response({ status: 401 }))).toEqual({
      type: 'status_code',
      name: 'signed in',
      expected: '200',
      actual: '401',
      passed: false,
      message: 'expected status 200, got 401',
    });
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
