/**
 * The longest texts a plan holds, in characters as zod and the browser count them (UTF-16 code units).
 * One place, so that the schemas, the server and the web app's editors refuse at the same length and
 * name the same limit (docs/reference/01-authoring.md §9, docs/reference/02-running.md §9).
 * `textLimitMessage` words the refusal, with the field and the limit, that the screens read back.
 */

/** A performance plan's script, a functional plan's script_content, and a call's request body. */
export const MAX_TEXT_CHARS = 1_000_000;

/** One field of a call or a rule: a header or parameter value, a rule's expected value, a capture. */
export const MAX_FIELD_CHARS = 8192;

/**
 * The message of a text over its length limit, naming the field and the limit (issue 24: zod's own
 * "expected string to have <=1000000 characters" reached the screen). `LIMIT_MESSAGE` reads it back.
 */
export function textLimitMessage(label: string, max: number): string {
  return `${label} must be at most ${max.toLocaleString('en-US')} characters`;
}

/** Reads a textLimitMessage back into its field label and limit (for the screens' translations). */
export const LIMIT_MESSAGE = /^(.+) must be at most ([\d,]+) characters$/;
