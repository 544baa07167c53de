import { describe, expect, it } from 'vitest';
import {
  compileUserPattern,
  PATTERN_ENGINE_NOTE,
  patternGroupCount,
  UNSUPPORTED_PATTERN_CONSTRUCTS,
  userPatternProblem,
  UserPatternError,
} from './user-pattern';

describe('user patterns (docs/adr/0022-linear-time-patterns.md)', () => {
  it('searches anywhere, as a JavaScript RegExp test does', () => {
    const p = compileUserPattern('"id":\\s*(\\d+)');
    expect(p.test('{"id": 42}')).toBe(true);
    expect(p.test('{"id": "x"}')).toBe(false);
    expect(p.groupCount).toBe(1);
  });

  it('judges ^(a+)+$ against a long answer at once (linear time)', () => {
    const p = compileUserPattern('^(a+)+$');
    const started = Date.now();
    expect(p.test(`${'a'.repeat(50_000)}!`)).toBe(false);
    expect(p.test('a'.repeat(50_000))).toBe(true);
    // A backtracking engine would take longer than the age of the universe here.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives groups, undefined for a group that took no part, and named groups by number', () => {
    expect(compileUserPattern('(?<first>\\w+) (x)?(\\w+)').exec('Ada Lovelace')).toEqual([
      'Ada Lovelace',
      'Ada',
      undefined,
      'Lovelace',
    ]);
    expect(compileUserPattern('no').exec('yes')).toBeNull();
    expect(compileUserPattern('b+').exec('abbbc')).toEqual(['bbb']);
  });

  it('finds the nth match, or says how many there are; empty matches step on', () => {
    const p = compileUserPattern('id=(\\d)');
    expect(p.nth('id=1 id=2 id=3', 2)).toEqual({ match: ['id=2', '2'] });
    expect(p.nth('id=1 id=2', 3)).toEqual({ count: 2 });
    expect(p.nth('none', 1)).toEqual({ count: 0 });
    expect(compileUserPattern('x*').nth('ab', 5)).toEqual({ count: 3 });
  });

  it('takes the flags i, m and s, and the same as inline (?i) (?m) (?s)', () => {
    expect(compileUserPattern('ada', 'i').test('ADA')).toBe(true);
    expect(compileUserPattern('(?i)ada').test('ADA')).toBe(true);
    expect(compileUserPattern('^b$').test('a\nb')).toBe(false);
    expect(compileUserPattern('^b$', 'm').test('a\nb')).toBe(true);
    expect(compileUserPattern('a.b').test('a\nb')).toBe(false);
    expect(compileUserPattern('a.b', 's').test('a\nb')).toBe(true);
    expect(compileUserPattern('a', 'gu').test('a')).toBe(true);
    expect(() => compileUserPattern('a', 'y')).toThrow('the flag y is not supported (only i, m and s are)');
  });

  it('reads characters, not UTF-16 halves, and folds case in Unicode', () => {
    expect(compileUserPattern('^.$').test('😀')).toBe(true);
    expect(compileUserPattern('(?i)é').test('É')).toBe(true);
    expect(compileUserPattern('\\p{Hangul}+').exec('안녕 hi')).toEqual(['안녕']);
  });

  it("reads JavaScript's \\uXXXX, a surrogate pair and \\u{X} as RE2's \\x{X}", () => {
    expect(compileUserPattern('caf\\u00e9').test('café')).toBe(true);
    expect(compileUserPattern('^\\ud83d\\ude00$').test('😀')).toBe(true);
    expect(compileUserPattern('^\\u{1F600}$').test('😀')).toBe(true);
    // An escaped backslash before u is a backslash and a u.
    expect(compileUserPattern('\\\\u0041').test('\\u0041')).toBe(true);
  });

  it.each([
    ['(?=a)b', 'lookahead'],
    ['a(?!b)', 'negativeLookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negativeLookbehind'],
    ['(?>a+)b', 'atomicGroup'],
    ['(a)\\1', 'backreference'],
    ['(?<n>a)\\k<n>', 'namedBackreference'],
    ['(?P<n>a)(?P=n)', 'namedBackreference'],
    ['a++', 'possessive'],
    ['a*+', 'possessive'],
    ['a{2,3}+', 'possessive'],
    ['(a|(?R))', 'recursion'],
    ['(?(1)a|b)', 'conditional'],
    ['a(?#note)', 'comment'],
    ['(?x) a b', 'inlineFlag'],
    ['\\Ga', 'previousMatchAnchor'],
    ['a\\Z', 'endBeforeNewline'],
    ['a{1001}', 'repeatCount'],
  ] as const)('refuses %s by naming its construct', (source, construct) => {
    let error: unknown;
    try {
      compileUserPattern(source);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserPatternError);
    expect((error as UserPatternError).construct).toBe(construct);
    expect((error as Error).message).toBe(
      `${UNSUPPORTED_PATTERN_CONSTRUCTS[construct]} is not supported — ${PATTERN_ENGINE_NOTE}`,
    );
  });

  it('says lookahead (?=…) in the words of the refusal', () => {
    expect(userPatternProblem('^(?=.*\\d)')).toBe(
      'lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
    );
  });

  it('does not mistake escapes and classes for constructs', () => {
    for (const source of ['\\(?=', '[(?=]', '\\Q(?=a)\\E', '[[:alpha:]]+', '[]a]', 'a{2,3}', 'a\\+\\+'])
      expect(userPatternProblem(source), source).toBeUndefined();
    expect(userPatternProblem('[\\1]')).toBe(
      `not a valid pattern: invalid escape sequence: \`\\1\` — ${PATTERN_ENGINE_NOTE}`,
    );
    expect(compileUserPattern('\\Q(?=a)\\E').test('x(?=a)')).toBe(true);
  });

  it("gives RE2's reason for a pattern that is not valid at all", () => {
    expect(userPatternProblem('(')).toBe(
      `not a valid pattern: missing closing ): \`(\` — ${PATTERN_ENGINE_NOTE}`,
    );
    expect(userPatternProblem('[z-a]')).toMatch(/^not a valid pattern: invalid character class range/);
  });
});

describe('patternGroupCount', () => {
  it('counts groups from the text, as RE2 and JavaScript number them', () => {
    for (const source of [
      'a(b)(?:c)(d)',
      '(?<n>a)(?P<m>b)',
      '\\((x)\\)',
      '[(](y)',
      '\\Q(\\E(z)',
      '(?=a)(b)',
      '(?<!x)y',
    ])
      expect(patternGroupCount(source), source).toBe(
        (new RegExp(`${source.replace('(?P<', '(?<').replace('\\Q(\\E', '\\(')}|`).exec('')?.length ?? 1) - 1,
      );
    expect(compileUserPattern('a(b)(?:c)(d)').groupCount).toBe(patternGroupCount('a(b)(?:c)(d)'));
  });
});
