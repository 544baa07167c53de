import { describe, expect, it } from 'vitest';
import { FunctionalValidationSchema } from '@aqa/plan';
import { petstoreSchema } from './petstore-fixture';
import { openApiToJsonSchema, SchemaJudge } from './schema-judge';

const rule = (expected: string) =>
  FunctionalValidationSchema.parse({
    type: 'schema',
    expected_value: expected,
    name: 'matches the document',
  });

describe('the schema rule', () => {
  const judge = new SchemaJudge();
  const pet = rule(petstoreSchema('/pets/{petId}', '200'));
  const pets = rule(petstoreSchema('/pets', '200'));

  it('passes a body that conforms to the document’s response schema', () => {
    const detail = judge.judge(pet, { body: '{"id":7,"name":"Rex","tag":"dog"}', complete: true });
    expect(detail).toMatchObject({
      type: 'schema',
      name: 'matches the document',
      passed: true,
      actual: 'conforms',
      message: 'the body conforms to the schema',
      violations: [],
    });
  });

  it('names every violation by its JSON Pointer, in words', () => {
    const detail = judge.judge(pet, { body: '{"id":"seven","tag":3}', complete: true });
    expect(detail.passed).toBe(false);
    expect(detail.actual).toBe('3 violations');
    expect(detail.violations).toEqual([
      { path: '/', message: 'is missing required property name' },
      { path: '/id', message: 'must be integer, not string' },
      { path: '/tag', message: 'must be string, not integer' },
    ]);
    expect(detail.message).toBe(
      '3 schema violations: / is missing required property name; /id must be integer, not string; /tag must be string, not integer',
    );
    const list = judge.judge(pets, { body: '[{"id":1,"name":"a"},{"id":2}]', complete: true });
    expect(list.violations).toEqual([{ path: '/1', message: 'is missing required property name' }]);
    expect(list.message).toBe('1 schema violation: /1 is missing required property name');
  });

  it('fails a body that is not JSON, one cut short, and no response, each in words', () => {
    expect(judge.judge(pet, { body: '<html>oops</html>', complete: true })).toMatchObject({
      passed: false,
      actual: '<html>oops</html>',
      message: 'expected a JSON body matching the schema, but the body is not JSON',
    });
    expect(judge.judge(pet, { body: '{"id":', complete: false }).message).toBe(
      'the body is too large to be checked against the schema',
    );
    expect(judge.judge(pet, null, 'connection refused by 127.0.0.1:1')).toMatchObject({
      passed: false,
      actual: null,
      message: 'expected a body matching the schema, but connection refused by 127.0.0.1:1',
    });
  });

  it('reads OpenAPI 3.0’s nullable and boolean exclusive bounds, and ignores example, xml and discriminator', () => {
    const schema = JSON.stringify({
      type: 'object',
      discriminator: { propertyName: 'kind' },
      xml: { name: 'thing' },
      properties: {
        note: { type: 'string', nullable: true, example: 'x' },
        size: { type: 'number', minimum: 0, exclusiveMinimum: true, readOnly: true },
        kind: { type: 'string', enum: ['a', 'b'], nullable: true },
      },
    });
    expect(openApiToJsonSchema(JSON.parse(schema))).toMatchObject({
      properties: {
        size: { exclusiveMinimum: 0 },
        kind: { enum: ['a', 'b', null], type: ['string', 'null'] },
      },
    });
    expect(
      judge.judge(rule(schema), { body: '{"note":null,"size":1,"kind":null}', complete: true }).passed,
    ).toBe(true);
    expect(judge.judge(rule(schema), { body: '{"size":0,"kind":"c"}', complete: true }).violations).toEqual([
      { path: '/size', message: 'must be > 0' },
      { path: '/kind', message: 'must be one of "a", "b", null' },
    ]);
  });

  it('says so when the expected schema cannot be used', () => {
    const detail = judge.judge(rule('{"$ref":"#/components/schemas/Missing"}'), {
      body: '{}',
      complete: true,
    });
    expect(detail.passed).toBe(false);
    expect(detail.message).toMatch(/^the expected schema cannot be used: can't resolve reference/);
  });
});

describe('a schema pattern (docs/adr/0022-linear-time-patterns.md)', () => {
  it('runs on the linear-time engine: ^(a+)+$ against thirty a and a ! is judged at once', () => {
    const judge = new SchemaJudge();
    const schema = JSON.stringify({
      type: 'object',
      properties: { v: { type: 'string', pattern: '^(a+)+$' } },
    });
    const started = Date.now();
    const detail = judge.judge(rule(schema), {
      body: JSON.stringify({ v: `${'a'.repeat(30)}!` }),
      complete: true,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(detail.passed).toBe(false);
    expect(detail.message).toContain('/v must match pattern "^(a+)+$"');
  });

  it('makes a schema whose pattern RE2 cannot run unusable, in words', () => {
    const schema = JSON.stringify({ type: 'string', pattern: '^(?=a)' });
    const detail = new SchemaJudge().judge(rule(schema), { body: '"a"', complete: true });
    expect(detail.passed).toBe(false);
    expect(detail.message).toContain('lookahead (?=…) is not supported');
  });
});
