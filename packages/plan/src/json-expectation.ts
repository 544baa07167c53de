/**
 * What a JSON-path comparison expects (docs/design.md §4 "JSON literals"), read once and judged the same
 * way by the load engine, the functional runner, Validate and every generated script. An expected value
 * that looks like a JSON literal is that literal, as Postman (chai's eql) and Hurl users write it:
 *
 *   "ada"   a quoted JSON string (or 'ada', as Postman's JavaScript writes one) equals only the string ada;
 *   42, 1.5, -2e3   a JSON number equals a JSON number of the same value (10 == 10.0), never a string
 *           ("10" is text, not a number: Hurl's and chai's rule);
 *   true, false     equal only that JSON boolean;
 *   null    equals only JSON null (a path that matches nothing is not null);
 *   anything else   bare text, compared with the value's text as before: a string as it is, any other
 *           value as compact JSON — so `== ada` and `== {"a":1}` keep working.
 *
 * `!=` (not_equals) is the negation of the same equality. contains and regex (`~`) read the expected value
 * as text and as a pattern, never as a literal: a value's text holds no quotes unless it is an object or
 * an array, whose JSON text does.
 */
export type JsonExpectation =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'text'; value: string };

/** The JSON grammar's number: no leading zeros, no `+`, no bare `.5` or `1.`. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A quoted string's text: JSON's double-quoted form, or single quotes around text without one. */
function quotedText(written: string): string | undefined {
  if (written.length < 2) return undefined;
  if (written.startsWith('"') && written.endsWith('"')) {
    try {
      const value: unknown = JSON.parse(written);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  if (written.startsWith("'") && written.endsWith("'") && !written.slice(1, -1).includes("'")) {
    return written.slice(1, -1);
  }
  return undefined;
}

/** Reads an expected value (see the module comment); surrounding spaces do not count for a literal. */
export function readJsonExpectation(written: string): JsonExpectation {
  const trimmed = written.trim();
  const text = quotedText(trimmed);
  if (text !== undefined) return { kind: 'string', value: text };
  if (JSON_NUMBER.test(trimmed)) {
    const value = Number(trimmed);
    if (Number.isFinite(value)) return { kind: 'number', value };
  }
  if (trimmed === 'true' || trimmed === 'false') return { kind: 'boolean', value: trimmed === 'true' };
  if (trimmed === 'null') return { kind: 'null' };
  return { kind: 'text', value: written };
}

/** The text form of a JSON value for text comparisons and variables: a string as is, the rest as JSON. */
export function jsonValueAsText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Whether the value a path found equals the expectation. `found` is undefined when the path matched
 * nothing: no literal equals that, and bare text compares it as empty text (docs/design.md §4).
 */
export function jsonValueEquals(found: unknown, expected: JsonExpectation): boolean {
  switch (expected.kind) {
    case 'string':
      return typeof found === 'string' && found === expected.value;
    case 'number':
      return typeof found === 'number' && found === expected.value;
    case 'boolean':
      return found === expected.value;
    case 'null':
      return found === null;
    case 'text':
      return (jsonValueAsText(found) ?? '') === expected.value;
  }
}

/**
 * How a judgement shows the value a path found: as JSON when the expectation is a literal (so the
 * string "1" and the number 1 read apart), as its text otherwise; undefined when nothing matched.
 */
export function shownJsonValue(found: unknown, expected: JsonExpectation): string | undefined {
  if (found === undefined) return undefined;
  return expected.kind === 'text' ? jsonValueAsText(found) : JSON.stringify(found);
}
