import type { JsonPathSegment } from './json-path';
import { escapeOroRegex } from './serializers/regex-escape';

/**
 * A JSONPath as regular expressions, for JMeter before 3.0, which has no JSON Extractor
 * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). Only paths that walk down from the
 * root by member names and non-negative indexes can be written this way: `$.token`, `$.data.user.id`,
 * `$['a b'].c`, `$.items[0].id`, `$[2]`. Anything else (`*`, `[*]`, `..key`, negative indexes, filters,
 * slices, unions, `$` alone) has no regular expression here and the plan is refused for that JMeter.
 *
 * The expression reads the body as JSON tokens from its start: at each object it steps over the members
 * before the wanted one (a member name is matched only where a member starts, never inside a string or
 * inside a nested value), at each array over the elements before the wanted index, and then captures the
 * value. So on well-formed JSON it finds exactly the value the engine's JSONPath finds, within these
 * limits (documented in docs/reference/01-authoring.md §9):
 *   - a value that is stepped over may nest objects and arrays at most JSON_REGEX_NESTING levels deep;
 *     past that, nothing matches (as when the path is absent: an extraction keeps its value);
 *   - member names are matched as JSON.stringify writes them (a name the body writes with \u escapes or
 *     an escaped "/" is not found);
 *   - a string is captured as the body writes it, without decoding escapes (\" \\ \/ \uXXXX stay);
 *   - a number, true, false or null is captured as written ("1.50" stays "1.50"; the engine says 1.5);
 *   - an object or array is captured as written, white space included (the engine writes it compact).
 *
 * Two expressions, because JMeter's template cannot join alternative groups (an unmatched group is
 * written "null"): `string` captures a string value without its quotes, `other` anything else. At most
 * one of them matches a given body. Both are Perl 5 expressions as Jakarta ORO reads them, and also
 * valid JavaScript, which the tests use to check them against the engine's JSONPath.
 */

/**
 * How much of the body the expressions read: Jakarta ORO recurses once for every JSON token a pattern
 * steps over (measured in Debian's JMeter 2.13: a 1 MB Java thread stack overflows after about 700
 * tokens, 8 MB after about 5 000, and the overflow ends the virtual user). The generator matches the
 * first JSON_REGEX_PREFIX_CHARS characters only, at most ~2 000 tokens, and the engine runs JMeter
 * before 3.0 with JMETER_LEGACY_THREAD_STACK.
 */
export const JSON_REGEX_PREFIX_CHARS = 4096;

/** The Java thread stack (-Xss) that JMeter before 3.0 runs with when a script uses these expressions. */
export const JMETER_LEGACY_THREAD_STACK = '8m';

/** How deeply a value that the expression steps over may nest objects and arrays. */
export const JSON_REGEX_NESTING = 8;

export interface JsonPathRegexes {
  /** Group 1: the string's characters, as written between its quotes. */
  string: string;
  /** Group 1: a number, true, false, null, object or array, as written. */
  other: string;
}

export type JsonPathRegexAnswer = { ok: true; regexes: JsonPathRegexes } | { ok: false; reason: string };

/** The kinds of JSONPath that a regular expression can stand in for, for messages. */
export const JSON_REGEX_PATHS = 'member and index paths such as $.token, $.data.id or $.items[0].id';

// Every repetition below is unambiguous (each alternative starts with its own character), so a body that
// does not match fails in time linear in its length, and plain runs are taken whole ("unrolled loops"),
// so ORO repeats a group once per string or nested value, not once per character.
const PLAIN = '[^"{}\\[\\]]*';
const STRING = '"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"';
const LITERAL = '[^\\s,:"{}\\[\\]]+';

/** An object or array nesting at most `depth` levels (brackets are not paired by kind: well-formed JSON pairs them). */
function container(depth: number): string {
  const inner = depth > 1 ? `${STRING}|${container(depth - 1)}` : STRING;
  return `[{\\[]${PLAIN}(?:(?:${inner})${PLAIN})*[}\\]]`;
}

const CONTAINER = container(JSON_REGEX_NESTING);
const VALUE = `(?:${STRING}|${LITERAL}|${CONTAINER})`;
/** What may follow a value: the next member or element, or the end of its container or of the body. */
const VALUE_END = '(?=\\s*(?:[,}\\]]|$))';

/** A member name as it stands between quotes in JSON text, as a regular expression. */
function memberName(key: string): string {
  return escapeOroRegex(JSON.stringify(key).slice(1, -1));
}

/** Why a segment cannot be written as a regular expression, or undefined when it can. */
function segmentProblem(segment: JsonPathSegment): string | undefined {
  switch (segment.kind) {
    case 'key':
      return undefined;
    case 'index':
      return segment.index < 0 ? `the negative index [${segment.index}]` : undefined;
    case 'wildcard':
      return 'the wildcard *';
    case 'descendant':
      return `the descendant step ..${segment.key}`;
  }
}

/**
 * The expressions for a parsed path, or why there are none. `segments` undefined: the path did not parse
 * (filters, slices, unions and functions do not).
 */
export function jsonPathRegexes(segments: readonly JsonPathSegment[] | undefined): JsonPathRegexAnswer {
  if (segments === undefined) return { ok: false, reason: 'it uses syntax beyond members and indexes' };
  if (segments.length === 0) return { ok: false, reason: 'it selects the whole document ($)' };
  const problems = segments.map(segmentProblem).filter((p): p is string => p !== undefined);
  if (problems.length > 0) return { ok: false, reason: `it uses ${problems.join(' and ')}` };

  let path = '^\\s*';
  for (const segment of segments) {
    if (segment.kind === 'key') {
      // Step over the members before the wanted one, each "name": value, — never into them.
      path += `\\{(?:\\s*${STRING}\\s*:\\s*${VALUE}\\s*,)*?\\s*"${memberName(segment.key)}"\\s*:\\s*`;
    } else if (segment.kind === 'index') {
      path += `\\[${segment.index > 0 ? `(?:\\s*${VALUE}\\s*,){${segment.index}}` : ''}\\s*`;
    }
  }
  return {
    ok: true,
    regexes: {
      string: `${path}"([^"\\\\]*(?:\\\\.[^"\\\\]*)*)"`,
      other: `${path}(${LITERAL}|${CONTAINER})${VALUE_END}`,
    },
  };
}
