import type { UrlEntry } from './perf-plan';

/**
 * How a URL entry's extraction, assertion and body behave (docs/design.md §4), written once so that the engine and
 * every generator read the plan the same way.
 *
 * Extraction (into extractName, for later steps of the same VU):
 *   json  — extractValue is a JSONPath; the first match; a string as is, anything else as JSON text.
 *   regex — extractValue is a regular expression; its first capture group (the whole match if it has none).
 *   xml   — extractValue is an XPath; the text content of the first match.
 *   text  — extractValue is the text around the value with one * where the value is ("token=*;"); blank
 *           takes the whole body; a * at the end takes the rest of the body; without a *, the value runs
 *           from after extractValue to the end of its line.
 * No match leaves the variable as it was (a later {{name}} is then sent as written); JMeter and Taurus
 * extractors may write empty text instead, which their generators accept as the closest they can do.
 *
 * Assertion (a failure counts as an error): the actual value is the status code (status), the body (text),
 * the first JSONPath match (json) or the text of the first XPath match (xml); a path with no match is
 * compared as empty text. equals / not_equals compare whole text, contains looks for the text, regex looks
 * for a match anywhere in it.
 */

export type TextBoundaries =
  | { kind: 'whole-body' }
  | { kind: 'between'; left: string; right: string }
  | { kind: 'rest-of-line'; left: string };

/** The boundaries of a text extraction; see the module comment. */
export function textExtractionBoundaries(extractValue: string): TextBoundaries {
  if (extractValue === '') return { kind: 'whole-body' };
  const star = extractValue.indexOf('*');
  if (star === -1) return { kind: 'rest-of-line', left: extractValue };
  return { kind: 'between', left: extractValue.slice(0, star), right: extractValue.slice(star + 1) };
}

/** Whether the entry extracts a variable (a name, and a path or pattern where the type needs one). */
export function hasExtraction(
  entry: Pick<UrlEntry, 'extractName' | 'extractType' | 'extractValue'>,
): boolean {
  if (entry.extractName.trim() === '') return false;
  return entry.extractType === 'text' || entry.extractValue.trim() !== '';
}

/** Whether the entry asserts: an expected value, and for json/xml a path to compare. */
export function hasAssertion(
  entry: Pick<UrlEntry, 'assertionType' | 'assertionPath' | 'assertionValue'>,
): boolean {
  if (entry.assertionValue.trim() === '') return false;
  return (
    entry.assertionType === 'text' || entry.assertionType === 'status' || entry.assertionPath.trim() !== ''
  );
}

/**
 * The Content-Type sent with a payload when the entry's headers name none: JSON for a payload that starts
 * with { or [, XML for one that starts with <, nothing otherwise (the tool's default).
 */
export function inferContentType(payload: string): string | undefined {
  const first = payload.trimStart()[0];
  if (first === '{' || first === '[') return 'application/json';
  if (first === '<') return 'application/xml';
  return undefined;
}
