import { RE2JS } from 're2js';

/*
 * Every regular expression a user writes — an assertion's or a rule's pattern, a regex extraction or
 * capture, a `~` JSON path comparison, a `/…/` inside a JSONPath filter, a UI script's page check — is
 * compiled and run here, and only here, on RE2 (the re2js port): a linear-time engine, so no pattern
 * and no answer can make a check take longer than the answer is long (docs/adr/0022-linear-time-patterns.md).
 * The load engine, the functional runner, Validate, the UI runner and the plan's own checks all call
 * this module, so a pattern means the same thing everywhere.
 *
 * The syntax is RE2's (docs/reference/01-authoring.md §3 "Patterns"). What RE2 cannot run in linear
 * time — backreferences, lookahead and lookbehind, atomic groups, possessive quantifiers, recursion —
 * is refused by name. JavaScript's and Java's `\uXXXX` (a surrogate pair as one character) and `\u{X}`
 * are read as RE2's `\x{X}`, so a pattern written for k6 or JMeter keeps its meaning.
 */

/** The words every refusal ends with. */
export const PATTERN_ENGINE_NOTE = 'patterns run on a linear-time engine (RE2 syntax)';

/** A construct RE2 cannot run, as the refusal names it. */
export const UNSUPPORTED_PATTERN_CONSTRUCTS = {
  lookahead: 'lookahead (?=…)',
  negativeLookahead: 'negative lookahead (?!…)',
  lookbehind: 'lookbehind (?<=…)',
  negativeLookbehind: 'negative lookbehind (?<!…)',
  atomicGroup: 'atomic group (?>…)',
  backreference: 'backreference \\1',
  namedBackreference: 'named backreference \\k<…>',
  possessive: 'possessive quantifier (*+, ++, ?+)',
  recursion: 'recursion (?R)',
  conditional: 'conditional (?(…)…)',
  comment: 'comment group (?#…)',
  inlineFlag: 'inline flag (only i, m, s and U are supported)',
  previousMatchAnchor: 'anchor \\G',
  endBeforeNewline: 'anchor \\Z (use \\z or $)',
  repeatCount: 'repeat count above 1000',
} as const;
export type UnsupportedPatternConstruct = keyof typeof UNSUPPORTED_PATTERN_CONSTRUCTS;

/** The flags a pattern may be compiled with: JavaScript's letters that RE2 has a meaning for. */
const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // Searching is always global here (matchAll) and always reads code points.
  g: 0,
  u: 0,
};

/** Why a pattern cannot be compiled: a construct RE2 does not run, or a mistake in the pattern. */
export class UserPatternError extends Error {
  override readonly name = 'UserPatternError';

  constructor(
    message: string,
    /** Set when the pattern is well-formed for a backtracking engine but uses a construct RE2 refuses. */
    readonly construct?: UnsupportedPatternConstruct,
  ) {
    super(message);
  }
}

/** One match: the whole match, then each group (undefined for a group that took no part). */
export type PatternMatch = readonly (string | undefined)[];

/** A compiled user pattern. Stateless: one may be shared by every call of a run. */
export interface UserPattern {
  readonly source: string;
  /** Capture groups in the pattern. */
  readonly groupCount: number;
  /** Whether it matches anywhere in `text`. */
  test(text: string): boolean;
  /** The first match, or null. */
  exec(text: string): PatternMatch | null;
  /**
   * The `nth` (1-based) match, or how many matches there are when fewer (0: none). Empty matches step
   * one character on, as JavaScript's matchAll does.
   */
  nth(text: string, nth: number): { match: PatternMatch } | { count: number };
}

/**
 * Patterns compiled lately, and refusals, by flags and source: a plan repeats its patterns, and RE2
 * compiles in a fraction of a millisecond, not nothing (a compiled pattern is stateless, so one is shared).
 */
const CACHE_LIMIT = 2048;
const compiled = new Map<string, UserPattern | UserPatternError>();

/** Compiles a user's pattern, or throws UserPatternError saying, in words, what cannot be run. */
export function compileUserPattern(source: string, flags = ''): UserPattern {
  const key = `${flags}/${source}`;
  let found = compiled.get(key);
  if (found === undefined) {
    try {
      found = compileAfresh(source, flags);
    } catch (error) {
      if (!(error instanceof UserPatternError)) throw error;
      found = error;
    }
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(key, found);
  }
  if (found instanceof UserPatternError) throw found;
  return found;
}

function compileAfresh(source: string, flags: string): UserPattern {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) {
      throw new UserPatternError(`the flag ${flag} is not supported (only i, m and s are)`);
    }
    bits |= bit;
  }
  const construct = unsupportedConstruct(source);
  if (construct !== undefined) {
    throw new UserPatternError(
      `${UNSUPPORTED_PATTERN_CONSTRUCTS[construct]} is not supported — ${PATTERN_ENGINE_NOTE}`,
      construct,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(readJsEscapes(source), bits);
  } catch (error) {
    throw new UserPatternError(`not a valid pattern: ${syntaxReason(error)} — ${PATTERN_ENGINE_NOTE}`);
  }
  const groupCount = re.groupCount();
  return {
    source,
    groupCount,
    test: (text) => re.test(text),
    exec: (text) => (groupCount === 0 ? firstWhole(re, text) : plain(re.exec(text))),
    nth(text, nth) {
      let count = 0;
      for (const match of re.matchAll(text)) {
        count++;
        if (count === nth) return { match: Array.from(match) };
      }
      return { count };
    },
  };
}

/** Why a pattern cannot be run, in words, or undefined when it can. */
export function userPatternProblem(source: string, flags = ''): string | undefined {
  try {
    compileUserPattern(source, flags);
    return undefined;
  } catch (error) {
    if (error instanceof UserPatternError) return error.message;
    throw error;
  }
}

/** Without groups, the DFA's test answers most calls; only a match is then located. */
function firstWhole(re: RE2JS, text: string): PatternMatch | null {
  if (!re.test(text)) return null;
  const found = plain(re.exec(text));
  return found === null ? null : [found[0]];
}

/** A match as a plain array, without exec's index, input and groups. */
function plain(found: unknown[] | null): PatternMatch | null {
  return found === null ? null : Array.from(found as (string | undefined)[]);
}

/** RE2's own reason, without its "error parsing regexp: " prefix. */
function syntaxReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^error parsing regexp:\s*/, '');
}

const HEX = /^[0-9A-Fa-f]$/;

/** `\uXXXX` (a high and low surrogate pair as one code point) and `\u{X}` as RE2's `\x{X}`. */
function readJsEscapes(source: string): string {
  if (!source.includes('\\u')) return source;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = source[i + 1];
    if (next === 'u') {
      const unit = hex4(source, i + 2);
      if (unit !== undefined) {
        const low = source[i + 6] === '\\' && source[i + 7] === 'u' ? hex4(source, i + 8) : undefined;
        if (unit >= 0xd800 && unit <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
          out += `\\x{${(((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000).toString(16)}}`;
          i += 11;
        } else {
          out += `\\x{${unit.toString(16)}}`;
          i += 5;
        }
        continue;
      }
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(source.slice(i + 2));
      if (braced !== null) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
    }
    // Any other escape goes through as written (RE2 judges it), its second character with it.
    out += c + (next ?? '');
    i++;
  }
  return out;
}

function hex4(text: string, at: number): number | undefined {
  const digits = text.slice(at, at + 4);
  if (digits.length !== 4 || ![...digits].every((d) => HEX.test(d))) return undefined;
  return Number.parseInt(digits, 16);
}

/** RE2's limit on `{n}` and `{n,m}`. */
const MAX_REPEAT = 1000;
const REPEAT = /^\{(\d+)(?:,(\d*))?\}/;

/**
 * The first construct a backtracking engine reads but RE2 refuses, found by walking the pattern
 * (escapes, character classes and `\Q…\E` skipped), so the refusal can name it; RE2's own parser then
 * judges everything else.
 */
export function unsupportedConstruct(source: string): UnsupportedPatternConstruct | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        i = end < 0 ? source.length : end + 1;
        continue;
      }
      if (!inClass) {
        if (next !== undefined && next >= '1' && next <= '9') return 'backreference';
        if (next === 'k' && source[i + 2] === '<') return 'namedBackreference';
        if (next === 'G') return 'previousMatchAnchor';
        if (next === 'Z') return 'endBeforeNewline';
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && source[i + 1] === ':') {
        const end = source.indexOf(':]', i + 2);
        if (end >= 0) i = end + 1;
      } else if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // A `]` first in the class (after an optional ^) is a literal `]`.
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const group = groupConstruct(source.slice(i + 2));
      if (group !== undefined) return group;
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && source[i + 1] === '+') return 'possessive';
    if (c === '{') {
      const repeat = REPEAT.exec(source.slice(i));
      if (repeat !== null) {
        const counts = [repeat[1], repeat[2]].filter((n) => n !== undefined && n !== '');
        if (counts.some((n) => Number(n) > MAX_REPEAT)) return 'repeatCount';
        if (source[i + repeat[0].length] === '+') return 'possessive';
        i += repeat[0].length - 1;
      }
    }
  }
  return undefined;
}

/** What follows `(?`: a group RE2 refuses, or undefined for one it reads (or leaves to its parser). */
function groupConstruct(rest: string): UnsupportedPatternConstruct | undefined {
  if (rest.startsWith('=')) return 'lookahead';
  if (rest.startsWith('!')) return 'negativeLookahead';
  if (rest.startsWith('<=')) return 'lookbehind';
  if (rest.startsWith('<!')) return 'negativeLookbehind';
  if (rest.startsWith('>')) return 'atomicGroup';
  if (rest.startsWith('#')) return 'comment';
  if (rest.startsWith('(')) return 'conditional';
  if (rest.startsWith('P=')) return 'namedBackreference';
  if (/^(?:R|[+-]?\d|&|P>)/.test(rest)) return 'recursion';
  // Inline flags (?flags) or (?flags:…): RE2 knows i, m, s and U.
  const flags = /^([A-Za-z-]*)[:)]/.exec(rest)?.[1];
  if (flags !== undefined && flags !== '' && /[^imsU-]/.test(flags)) return 'inlineFlag';
  return undefined;
}

/**
 * The capture groups a pattern declares, counted from its text (escapes, classes and `\Q…\E` skipped;
 * `(…)`, `(?<name>…)` and `(?P<name>…)` count) — the same in RE2 and in the JavaScript and Java syntax a
 * generated k6 or JMeter script hands the pattern to. Nothing is run.
 */
export function patternGroupCount(source: string): number {
  let groups = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      if (source[i + 1] === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        i = end < 0 ? source.length : end + 1;
      } else i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    if (c !== '(') continue;
    if (source[i + 1] !== '?') groups++;
    else if (/^\?(?:P?<)(?![=!])/.test(source.slice(i + 1))) groups++;
  }
  return groups;
}
