import { describe, expect, it } from 'vitest';
import { jsonValueEquals, readJsonExpectation, shownJsonValue } from './json-expectation';

const equals = (found: unknown, written: string): boolean =>
  jsonValueEquals(found, readJsonExpectation(written));

describe('JSON literals in expected values (docs/design.md §4 "JSON literals")', () => {
  it('reads a quoted string, a number, a boolean and null as JSON literals; the rest as text', () => {
    expect(readJsonExpectation('"ada"')).toEqual({ kind: 'string', value: 'ada' });
    expect(readJsonExpectation(' "a \\"b\\" \\u00e9" ')).toEqual({ kind: 'string', value: 'a "b" é' });
    expect(readJsonExpectation("'ada'")).toEqual({ kind: 'string', value: 'ada' });
    expect(readJsonExpectation('42')).toEqual({ kind: 'number', value: 42 });
    expect(readJsonExpectation('-1.50e2')).toEqual({ kind: 'number', value: -150 });
    expect(readJsonExpectation('true')).toEqual({ kind: 'boolean', value: true });
    expect(readJsonExpectation('null')).toEqual({ kind: 'null' });
    for (const text of [
      'ada',
      '007',
      '+1',
      '.5',
      '1.',
      'True',
      '"unclosed',
      '"a" "b"',
      "'it's'",
      '{"a":1}',
    ]) {
      expect(readJsonExpectation(text)).toEqual({ kind: 'text', value: text });
    }
  });

  it('a quoted string equals that string only', () => {
    expect(equals('ada', '"ada"')).toBe(true);
    expect(equals('ada', "'ada'")).toBe(true);
    expect(equals('"ada"', '"ada"')).toBe(false);
    expect(equals(1, '"1"')).toBe(false);
    expect(equals(true, '"true"')).toBe(false);
    expect(equals(undefined, '""')).toBe(false);
  });

  it('a number equals a JSON number of the same value, never a string (Hurl, chai)', () => {
    expect(equals(10, '10')).toBe(true);
    expect(equals(10, '10.0')).toBe(true);
    expect(equals(10.5, '10.50')).toBe(true);
    expect(equals(100, '1e2')).toBe(true);
    expect(equals('10', '10')).toBe(false);
    expect(equals(11, '10')).toBe(false);
  });

  it('true, false and null equal only that JSON value', () => {
    expect(equals(true, 'true')).toBe(true);
    expect(equals('true', 'true')).toBe(false);
    expect(equals(false, 'false')).toBe(true);
    expect(equals(0, 'false')).toBe(false);
    expect(equals(null, 'null')).toBe(true);
    expect(equals('null', 'null')).toBe(false);
    expect(equals(undefined, 'null')).toBe(false);
  });

  it('bare text compares with the text of the value, as before', () => {
    expect(equals('ada', 'ada')).toBe(true);
    expect(equals({ a: 1 }, '{"a":1}')).toBe(true);
    expect(equals([1, 2], '[1,2]')).toBe(true);
    expect(equals(undefined, 'ada')).toBe(false);
  });

  it('shows the found value as JSON beside a literal, as its text beside bare text', () => {
    expect(shownJsonValue('1', readJsonExpectation('1'))).toBe('"1"');
    expect(shownJsonValue(1, readJsonExpectation('"1"'))).toBe('1');
    expect(shownJsonValue('ada', readJsonExpectation('ada'))).toBe('ada');
    expect(shownJsonValue(undefined, readJsonExpectation('1'))).toBeUndefined();
  });
});
