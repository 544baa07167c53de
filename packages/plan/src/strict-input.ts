import { z } from 'zod';

/*
 * The strict input rules of docs/design.md §11 ("numbers are strict; control characters in names and
 * URLs are refused"), shared by every schema that takes a number, a name or a URL from a client, so
 * the web form and the server refuse the same input with the same words.
 */

/**
 * How a whole number may arrive as text: plain decimal digits and nothing else (no sign, exponent,
 * hex, fraction or surrounding spaces). Nine digits at most, so the value is always exact.
 */
const DECIMAL_DIGITS = /^[0-9]{1,9}$/;

/**
 * A whole number from `min` to `max`, sent as a JSON number or as text of plain decimal digits ("30",
 * what a query string or an older client sends). 0 or below `min`, negatives, fractions, "1e3", "0x10",
 * " 10 ", text, null, Infinity and huge values are refused with `message`, which names the field.
 */
export function wholeNumber(message: string, min: number, max: number) {
  return z
    .union([z.number(), z.string(), z.null()], { error: () => message })
    .transform((value, ctx): number => {
      const n = typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });
}

/** C0 controls, DEL, and the Unicode line and paragraph separators: never in a one-line field. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LINE_CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;
/** In text of several lines: controls other than tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const CONTROL_CHARACTER_MESSAGES = {
  line: (label: string) => `${label} cannot contain control characters or line breaks`,
  text: (label: string) => `${label} cannot contain control characters other than tabs and line breaks`,
  nul: (label: string) => `${label} cannot contain a NUL character`,
  illFormed: (label: string) =>
    `${label} is not well-formed text: it holds half of a character (a lone UTF-16 surrogate). Type or paste it again.`,
} as const;

/** A UTF-16 code unit of a surrogate pair standing alone; a whole pair is one code point under the u flag. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * False when the text holds half of a character (a lone UTF-16 surrogate, e.g. an emoji cut in two).
 * UTF-8 cannot hold one, so the database, a JSON answer or a tool's script would silently get U+FFFD
 * instead: such text is refused, never stored changed (docs/design.md §11). String.prototype.isWellFormed
 * where the runtime has it (Node 20, current browsers), else the same test as a regular expression.
 */
export function isWellFormedText(value: string): boolean {
  const native = (value as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(value) : !LONE_SURROGATE.test(value);
}

/**
 * The one refinement every stored, user-written text goes through (names, descriptions, notes,
 * feedback, token names, bodies and scripts): `schema` refusing text that is not well-formed Unicode,
 * naming the field by `label`.
 */
export function wellFormed<T extends z.ZodString>(schema: T, label: string): T {
  return schema.refine(isWellFormedText, CONTROL_CHARACTER_MESSAGES.illFormed(label));
}

/** True when the value holds a character a one-line field refuses (names, emails, URLs). */
export function hasLineControl(value: string): boolean {
  return LINE_CONTROL.test(value);
}

/**
 * `notText` as the answer to a value that is not text at all (a number, null, an object); the string's
 * other issues (too long, too short) keep their own messages.
 */
function textTypeError(notText: string | undefined) {
  if (notText === undefined) return undefined;
  return { error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? notText : undefined) };
}

/**
 * A one-line field (a name, an email, a URL): no control characters, no line breaks. Checked before
 * any trim, so a NUL or a line break is refused rather than cut off or trimmed away.
 */
export function oneLine(label: string, notText?: string) {
  return wellFormed(
    z
      .string(textTypeError(notText))
      .refine((value) => !LINE_CONTROL.test(value), CONTROL_CHARACTER_MESSAGES.line(label)),
    label,
  );
}

/** Text of several lines (a description, notes): tabs and line breaks are kept, other controls refused. */
export function multiLine(label: string, notText?: string) {
  return wellFormed(
    z
      .string(textTypeError(notText))
      .refine((value) => !TEXT_CONTROL.test(value), CONTROL_CHARACTER_MESSAGES.text(label)),
    label,
  );
}

/** Data sent as it is (a request body, a script): any character but NUL, which tools cut text at, and half a character. */
export function noNul(label: string) {
  return wellFormed(
    z.string().refine((value) => !value.includes('\u0000'), CONTROL_CHARACTER_MESSAGES.nul(label)),
    label,
  );
}

/** A header name: an HTTP token (RFC 9110 §5.1), read alike by every schema and rule that names a header. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
