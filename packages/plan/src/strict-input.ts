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
} as const;

/** True when the value holds a character a one-line field refuses (names, emails, URLs). */
export function hasLineControl(value: string): boolean {
  return LINE_CONTROL.test(value);
}

/**
 * A one-line field (a name, an email, a URL): no control characters, no line breaks. Checked before
 * any trim, so a NUL or a line break is refused rather than cut off or trimmed away.
 */
export function oneLine(label: string, notText?: string) {
  return z
    .string(notText === undefined ? undefined : { error: () => notText })
    .refine((value) => !LINE_CONTROL.test(value), CONTROL_CHARACTER_MESSAGES.line(label));
}

/** Text of several lines (a description, notes): tabs and line breaks are kept, other controls refused. */
export function multiLine(label: string, notText?: string) {
  return z
    .string(notText === undefined ? undefined : { error: () => notText })
    .refine((value) => !TEXT_CONTROL.test(value), CONTROL_CHARACTER_MESSAGES.text(label));
}

/** Data sent as it is (a request body, a script): any character but NUL, which tools cut text at. */
export function noNul(label: string) {
  return z.string().refine((value) => !value.includes('\u0000'), CONTROL_CHARACTER_MESSAGES.nul(label));
}
