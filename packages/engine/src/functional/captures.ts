import { compileJsonPath, jsonValueText } from '../executor/json-path';
import type { CompiledCapture } from './compile-api';

/*
 * Chaining (docs/design.md §9): a value read from a call's response into a variable that later calls
 * use as `{{name}}`. A capture that finds nothing leaves its variable unset and says so.
 */

export interface CaptureOutcome {
  name: string;
  /** Null when the capture found nothing. */
  value: string | null;
  /** Why it found nothing, in words. */
  problem?: string;
}

/** Reads one capture from a response (headers lowercased, the body as text). */
export function readCapture(
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
      const match = new RegExp(expression).exec(response.body);
      if (match === null) return nothing(`/${expression}/ does not match the body`);
      return { name, value: match[1] ?? match[0] };
    }
    case 'json_path': {
      let json: unknown;
      try {
        json = JSON.parse(response.body);
      } catch {
        return nothing(`the body is not JSON, so ${expression} cannot be read`);
      }
      const value = jsonValueText(compileJsonPath(expression)(json));
      return value === undefined ? nothing(`${expression} is not in the body`) : { name, value };
    }
  }
}

/** The sentence a call's error carries for the captures that found nothing. */
export function captureProblems(outcomes: readonly CaptureOutcome[]): string | null {
  const missing = outcomes.filter((o) => o.value === null);
  if (missing.length === 0) return null;
  return missing
    .map((o) => `Capture ${o.name} found nothing${o.problem === undefined ? '' : `: ${o.problem}`}`)
    .join('; ');
}
