import { describe, expect, it } from 'vitest';
import { compileJsonPath } from './json-path';
import { checkJsonPathFilters, JsonPathFilterError } from './json-path-filter';

/* JSONPath filters read by the engine's own evaluator (docs/adr/0022-linear-time-patterns.md). */

const DOC = {
  items: [
    { id: 1, name: 'apple', tags: ['red'] },
    { id: 2, name: 'banana', tags: ['yellow'] },
    { id: 3, name: `${'a'.repeat(30)}!`, tags: [] },
  ],
  roles: ['admin', 'qa'],
};

const first = (path: string): unknown => compileJsonPath(path)(DOC);

describe('JSONPath filters', () => {
  it('compare, combine and read members, as jsonpath-plus does', () => {
    expect(first('$.items[?(@.id == 2)].name')).toBe('banana');
    expect(first('$.items[?(@.id > 1 && @.name != "banana")].id')).toBe(3);
    expect(first('$.roles[?(@property == 1)]')).toBe('qa');
    expect(first('$.items[?(@.tags.length === 0)].id')).toBe(3);
    expect(first('$.items[(@.length-1)].id')).toBe(3);
    expect(first('$.items[?(!(@.id < 3))].id')).toBe(3);
  });

  it('call the linear string and list methods', () => {
    expect(first('$.items[?(@.name.startsWith("ban"))].id')).toBe(2);
    expect(first('$.items[?(@.tags.includes("red"))].id')).toBe(1);
    expect(first('$.items[?(@.name.toUpperCase() == "APPLE")].id')).toBe(1);
  });

  it('run /re/.test(x) and x.match(/re/) on the linear-time engine, ^(a+)+$ included', () => {
    expect(first('$.items[?(/^ban/.test(@.name))].id')).toBe(2);
    expect(first('$.items[?(@.name.match(/^A/i))].id')).toBe(1);
    const started = Date.now();
    expect(first('$.items[?(@.name.match(/^(a+)+$/))].id')).toBeUndefined();
    expect(first('$.items[?(/^(a+)+!$/.test(@.name))].id')).toBe(3);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['$.items[?(@.name.repeat(1e9))]', 'calling repeat() is not supported in a JSONPath filter'],
    ['$.items[?(@.name.padEnd(1e9))]', 'calling padEnd() is not supported in a JSONPath filter'],
    ['$.items[?(@.name.replace(/(a+)+$/, "x"))]', 'calling replace() is not supported in a JSONPath filter'],
    ['$.items[?(x = 1)]', 'a AssignmentExpression is not supported in a JSONPath filter'],
  ])('refuses %s before any answer, in words', (path, words) => {
    expect(() => checkJsonPathFilters(path)).toThrow(JsonPathFilterError);
    expect(() => compileJsonPath(path)).toThrow(words);
  });

  it('leaves a filter that is no expression to the query, which finds nothing with it', () => {
    expect(() => checkJsonPathFilters('$.roles[?(@=="qa")]')).not.toThrow();
    expect(() => first('$.roles[?(@=="qa")]')).toThrow('Unexpected "@" at character 0');
  });

  it('refuses a pattern RE2 cannot run, naming the construct', () => {
    expect(() => compileJsonPath('$.items[?(@.name.match(/^(?=a)/))]')).toThrow(
      '/^(?=a)/: lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
    );
  });
});
