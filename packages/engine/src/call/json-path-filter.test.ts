import { describe, expect, it } from 'vitest';
import { compileJsonPath } from './json-path';
import { checkJsonPathFilters, JsonPathFilterError, jsonPathProblem } from './json-path-filter';

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
    ['$.items[?(@.id = 1)]', '= is not a comparison in a JSONPath filter: write == to compare'],
  ])('refuses %s before any answer, in words', (path, words) => {
    expect(() => checkJsonPathFilters(path)).toThrow(JsonPathFilterError);
    expect(() => compileJsonPath(path)).toThrow(words);
  });

  it('reads a bare @ as the value, outside quotes (issue #27)', () => {
    expect(first("$.roles[?(@=='qa')]")).toBe('qa');
    expect(first('$.roles[?(@ != "admin")]')).toBe('qa');
    expect(first('$.items[*].id[?(@>2)]')).toBeUndefined();
    expect(first('$.items[?(@.id>2)].id')).toBe(3);
    expect(first("$.items[?(@.name == '@')].id")).toBeUndefined();
    expect(first('$.roles[?(@)]')).toBe('admin');
  });

  it('selects nothing where a filter reads a member of a missing value, rather than throwing', () => {
    expect(first('$.items[?(@.owner.name == "x")].id')).toBeUndefined();
    expect(first('$.items[?(@.owner.name == "x" || @.id == 2)].id')).toBe(2);
  });

  it.each([
    ['$.a[?(@.b==]', '$.a[?(@.b==] does not close: ] at character 12 comes before its ( is closed'],
    ['$.a[?(@.b==1', '$.a[?(@.b==1 does not close: its ( does not close'],
    ["$.a[?(@.b=='x)]", "$.a[?(@.b=='x)] does not close: its quote ' does not close"],
    ['$.a]', '$.a] does not close: ] at character 4 closes nothing open'],
    ['$.a[?(@.b == == 1)]', 'the filter ?(@.b == == 1) does not parse: '],
    ["$.a[?@.x=='y']", "[?@.x=='y] is not a filter here: a filter is written [?(…)]"],
    ['$.a[?(@.x =~ /y/)]', '= is not a comparison in a JSONPath filter'],
    ['$.a[?(@.x == $.b)]', "$ is not read inside a JSONPath filter: the document's root is @root there"],
    ['$.a[?(@.x == y)]', 'y is not known in a JSONPath filter, which reads @, @parent'],
  ])('refuses %s with its reason, before any answer', (path, words) => {
    expect(jsonPathProblem(path)).toContain(words);
    expect(() => checkJsonPathFilters(path)).toThrow(JsonPathFilterError);
    expect(() => compileJsonPath(path)).toThrow(words);
  });

  it.each([
    "$.roles[?(@=='qa')]",
    '$..items[?(@.id < 3)].name',
    "$.items[?(@.name == 'apple' && @.id == 1)]",
    '$.items[?(@.id == 1 || @.tags.length == 0)]',
    '$.items[?(@.tags[0] == "red")]',
    '$.items[?(@root.roles.includes(@.name))]',
    '$.items[?(@property > 0 && @parent.length == 3)]',
    '$[?(@.id)]',
    '$.items[*].name',
    '$..id',
    '$.items[0:2]',
  ])('judges %s: no problem, and the query runs', (path) => {
    expect(jsonPathProblem(path)).toBeUndefined();
    expect(() => first(path)).not.toThrow();
  });

  it('refuses a pattern RE2 cannot run, naming the construct', () => {
    expect(() => compileJsonPath('$.items[?(@.name.match(/^(?=a)/))]')).toThrow(
      '/^(?=a)/: lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
    );
  });
});
