import type { JsonExpectation } from '@aqa/plan';
import { escapeOroRegex } from './serializers/regex-escape';

/** A JSON literal of an assertion (docs/design.md §4 "JSON literals"), never bare text. */
export type JsonLiteral = Exclude<JsonExpectation, { kind: 'text' }>;

/**
 * A JSON literal as the tools that compare the text of a value see it (JMeter's JSON Extractor and
 * Taurus's JSON Path Assertion write a string as is and any other value in Java's words): the text
 * the value must equal, or, for a number, a Perl 5 pattern its whole text must match — Java writes
 * 10 as "10" or "10.0" and keeps no trailing zeros of 10.50, so 10, 10.0 and 10.50 all read as the
 * number they are. These tools do not tell a string from a number: "10" passes a 10 there.
 */
export function jsonLiteralText(literal: JsonLiteral): { exact: string } | { pattern: string } {
  switch (literal.kind) {
    case 'string':
      return { exact: literal.value };
    case 'boolean':
      return { exact: String(literal.value) };
    case 'null':
      // JMeter's JSON Extractor writes null as empty text (JSONPostProcessor.stringify).
      return { exact: '' };
    case 'number': {
      const text = String(literal.value);
      if (/e/i.test(text)) return { pattern: escapeOroRegex(text) };
      return {
        pattern: Number.isInteger(literal.value)
          ? `${escapeOroRegex(text)}(?:\\.0+)?`
          : `${escapeOroRegex(text)}0*`,
      };
    }
  }
}
