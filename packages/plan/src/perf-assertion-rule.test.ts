import { describe, expect, it } from 'vitest';
import { FunctionalValidationSchema } from './functional/validation';
import { perfAssertionRule } from './perf-assertion-rule';
import type { UrlEntry } from './perf-plan';

const entry = (
  assertionType: UrlEntry['assertionType'],
  assertionOperator: UrlEntry['assertionOperator'],
  assertionValue: string,
  assertionPath = '',
) => ({ assertionType, assertionOperator, assertionValue, assertionPath });

describe("a performance plan entry's assertion as a rule of the one dialect", () => {
  it('is null when the entry asserts nothing: no value, or a json or xml assertion without a path', () => {
    expect(perfAssertionRule(entry('text', 'equals', '  '))).toBeNull();
    expect(perfAssertionRule(entry('json', 'equals', 'x', ' '))).toBeNull();
    expect(perfAssertionRule(entry('xml', 'contains', 'x'))).toBeNull();
  });

  it('maps each operator: equals, not_equals (equals negated), contains, regex', () => {
    expect(perfAssertionRule(entry('text', 'equals', ' Not Found '))).toEqual({
      name: '',
      description: '',
      enabled: true,
      type: 'equals',
      expected_value: ' Not Found ',
    });
    expect(perfAssertionRule(entry('text', 'not_equals', 'x'))).toMatchObject({
      type: 'equals',
      negate: true,
    });
    expect(perfAssertionRule(entry('text', 'contains', 'x'))).toMatchObject({ type: 'contains_text' });
    expect(perfAssertionRule(entry('text', 'regex', '^a'))).toMatchObject({ type: 'regex' });
    expect(perfAssertionRule(entry('text', 'contains', 'x'))).not.toHaveProperty('negate');
  });

  it('reads a status trimmed; a single status compared whole is a status_code rule', () => {
    expect(perfAssertionRule(entry('status', 'equals', ' 201 '))).toMatchObject({
      type: 'status_code',
      expected_value: '201',
    });
    expect(perfAssertionRule(entry('status', 'not_equals', '500'))).toMatchObject({
      type: 'status_code',
      expected_value: '500',
      negate: true,
    });
    // `2xx` compared as text never equals a status: kept as that comparison, not read as a class.
    expect(perfAssertionRule(entry('status', 'equals', '2xx'))).toMatchObject({
      type: 'equals',
      subject: 'status_code',
      expected_value: '2xx',
    });
    expect(perfAssertionRule(entry('status', 'regex', ' ^2 '))).toMatchObject({
      type: 'regex',
      subject: 'status_code',
      expected_value: '^2',
    });
  });

  it('reads json and xml through their path, trimmed and as written', () => {
    expect(perfAssertionRule(entry('json', 'equals', '7', ' user.id '))).toMatchObject({
      type: 'equals',
      subject: 'json',
      path: 'user.id',
      expected_value: '7',
    });
    expect(perfAssertionRule(entry('xml', 'regex', '^a', '//name'))).toMatchObject({
      type: 'regex',
      subject: 'xml',
      path: '//name',
    });
  });

  it('is a rule the model reads back unchanged', () => {
    const entries = [
      entry('status', 'equals', '200'),
      entry('status', 'contains', '0'),
      entry('text', 'not_equals', ' x '),
      entry('json', 'equals', '"7"', '$.id'),
      entry('json', 'regex', '^$', '$.missing'),
      entry('xml', 'not_equals', 'a', '/r/a'),
    ];
    for (const e of entries) {
      const rule = perfAssertionRule(e);
      expect(FunctionalValidationSchema.parse(rule)).toEqual(rule);
    }
  });
});
