import {
  compileUserPattern,
  type Capture,
  type InnerPhrase,
  innerPhrase,
  type PatternMatch,
  type UserPattern,
} from '@aqa/plan';
import { compileJsonPath, jsonValueText, type JsonPathQuery } from './json-path';
import { JsonPathFilterError } from './json-path-filter';
import { bodyJson, firstLine } from './response-view';

/*
 * Chaining (docs/design.md §9): a value read from a call's response into a variable that later calls
 * use as `{{name}}`. A capture that finds nothing leaves its variable unset and says so — unless it has
 * a `default` (a read Taurus script's, docs/reference/02-running.md §3 "Taurus scripts"), which it then
 * takes, the call not failing for it. A regex capture takes its `group` (else the first group, else the
 * whole match) of its `match_no`th match (else the first).
 */

/** A capture compiled once per run: its variable's slot, and its pattern or JSON path ready to apply. */
export interface CompiledCapture extends Capture {
  slot: number;
  /** A regex capture's pattern, on the linear-time engine (docs/adr/0022-linear-time-patterns.md). */
  pattern: UserPattern | null;
  /** A json_path capture's query, or why its path cannot be read (jsonPathProblem). */
  query: JsonPathQuery | { problem: string } | null;
}

/** A json_path capture's query; a path that cannot be read fails the capture, in words, not the run. */
function captureQuery(expression: string): JsonPathQuery | { problem: string } {
  try {
    return compileJsonPath(expression);
  } catch (error) {
    if (error instanceof JsonPathFilterError) return { problem: error.message };
    throw error;
  }
}

export function compileCapture(capture: Capture, slot: number): CompiledCapture {
  return {
    ...capture,
    slot,
    // The run's start has checked that a regex capture's expression is a pattern RE2 runs.
    pattern: capture.from === 'regex' ? compileUserPattern(capture.expression) : null,
    query: capture.from === 'json_path' ? captureQuery(capture.expression) : null,
  };
}

export interface CaptureOutcome {
  name: string;
  /** Null when the capture found nothing and has no default. */
  value: string | null;
  /** Why it found nothing, in words (kept when the default was taken). */
  problem?: string;
  /** True when nothing was found and the value is the capture's default. */
  defaulted?: true;
}

/** Reads one capture from a response (headers lowercased, the body as text). */
export function readCapture(
  capture: CompiledCapture,
  response: { headers: Readonly<Record<string, string>>; body: string },
): CaptureOutcome {
  const found = find(capture, response);
  if (found.value !== null || capture.default === undefined) return found;
  return { ...found, value: capture.default, defaulted: true };
}

function find(
  capture: CompiledCapture,
  response: { headers: Readonly<Record<string, string>>; body: string },
): CaptureOutcome {
  const { name, expression } = capture;
  const nothing = (problem: string): CaptureOutcome => ({ name, value: null, problem });
  switch (capture.from) {
    case 'header': {
      const value = response.headers[expression.toLowerCase()];
      return value === undefined ? nothing(`the response has no ${expression} header`) : { name, value };
    }
    case 'regex': {
      const wanted = capture.match_no ?? 1;
      const match = nthMatch(capture.pattern!, response.body, wanted);
      if (match === null) return nothing(`/${expression}/ does not match the body`);
      if (typeof match === 'number') {
        return nothing(`/${expression}/ matches the body ${times(match)}, so there is no match ${wanted}`);
      }
      if (capture.group === undefined) return { name, value: match[1] ?? match[0] ?? '' };
      if (capture.group >= match.length) {
        return nothing(`/${expression}/ has no group ${capture.group}`);
      }
      const value = match[capture.group];
      return value === undefined
        ? nothing(`group ${capture.group} of /${expression}/ took no part in match ${wanted}`)
        : { name, value };
    }
    case 'json_path': {
      const query = capture.query!;
      if ('problem' in query) return nothing(`${expression} cannot be read: ${query.problem}`);
      const parsed = bodyJson(response);
      if (parsed === null) return nothing(`the body is not JSON, so ${expression} cannot be read`);
      let value: string | undefined;
      try {
        value = jsonValueText(query(parsed.json));
      } catch (error) {
        return nothing(`${expression} cannot be read: ${firstLine(error)}`);
      }
      return value === undefined ? nothing(`${expression} is not in the body`) : { name, value };
    }
  }
}

/** The nth (1-based) match of a pattern, else how many matches there were (null for none). */
function nthMatch(pattern: UserPattern, text: string, nth: number): PatternMatch | number | null {
  // Empty matches step one character on, so a pattern like x* cannot loop.
  const found = pattern.nth(text, nth);
  if ('match' in found) return found.match;
  return found.count === 0 ? null : found.count;
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

/** The phrase of captureProblems when one capture found nothing; several stay in English (docs/adr/0025-phrases.md). */
export function captureProblemPhrase(outcomes: readonly CaptureOutcome[]): InnerPhrase | null {
  const missing = outcomes.filter((o) => o.value === null);
  const [only] = missing;
  if (only === undefined || missing.length > 1) return null;
  return only.problem === undefined
    ? innerPhrase('capture.nothing', { name: only.name })
    : innerPhrase('capture.nothingBecause', { name: only.name, problem: only.problem });
}

/** The sentence a call's error carries for the captures that found nothing. */
export function captureProblems(outcomes: readonly CaptureOutcome[]): string | null {
  const missing = outcomes.filter((o) => o.value === null);
  if (missing.length === 0) return null;
  return missing
    .map((o) => `Capture ${o.name} found nothing${o.problem === undefined ? '' : `: ${o.problem}`}`)
    .join('; ');
}
