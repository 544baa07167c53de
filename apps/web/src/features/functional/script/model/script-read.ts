import {
  readTaurusScript,
  TaurusScriptError,
  type TaurusApi,
  type TaurusDataSource,
  type TaurusWarning,
} from '@aqa/converters';
import type { LineMark } from '@/components/code-editor/line-marks';

/**
 * The script as the Taurus reader reads it (packages/converters, the same code the server runs for
 * POST /api/functional/parse-script; docs/reference/02-running.md §3 "Taurus scripts"): the APIs that will
 * run, the execution settings and the warnings, read in the browser as the user types. A script the
 * reader refuses answers its message, its line when the YAML is broken, and the warnings that refused it.
 */

export interface ScriptExecution {
  concurrent_users: number;
  iterations: number;
  ramp_up_time: number;
  test_duration: number;
  think_time: number;
  test_name: string;
}

export type ScriptRead =
  | {
      ok: true;
      apis: TaurusApi[];
      execution: ScriptExecution;
      dataSources: TaurusDataSource[];
      warnings: TaurusWarning[];
    }
  | { ok: false; message: string; line?: number; warnings: TaurusWarning[] };

/** `files`: the data files attached to the plan, by the name the script uses. */
export function readScript(text: string, files: Readonly<Record<string, string>> = {}): ScriptRead {
  if (text.trim() === '') return { ok: false, message: '', warnings: [] };
  try {
    const read = readTaurusScript(text, { files });
    return {
      ok: true,
      apis: read.apis,
      execution: {
        concurrent_users: read.concurrent_users,
        iterations: read.iterations,
        ramp_up_time: read.ramp_up_time,
        test_duration: read.test_duration,
        think_time: read.think_time,
        test_name: read.test_name,
      },
      dataSources: read.data_sources,
      warnings: read.warnings,
    };
  } catch (error) {
    if (error instanceof TaurusScriptError) {
      return {
        ok: false,
        message: error.message,
        ...(error.line === undefined ? {} : { line: error.line }),
        warnings: error.warnings,
      };
    }
    return { ok: false, message: error instanceof Error ? error.message : String(error), warnings: [] };
  }
}

/**
 * The editor's line marks for either reader's answer (docs/reference/02-running.md §2): each warning on
 * its line (red when its effect is "refused"), the line a refused script breaks on, and each action the
 * Selenium reader does not know, on its line.
 */
export function scriptMarks(read: {
  ok: boolean;
  warnings: readonly TaurusWarning[];
  line?: number | undefined;
  message?: string;
  unknown?: readonly { line?: number | undefined; action: string; message: string }[];
}): LineMark[] {
  const marks: LineMark[] = [];
  for (const warning of read.warnings) {
    if (warning.line === undefined) continue;
    marks.push({
      line: warning.line,
      severity: warning.effect === 'refused' ? 'error' : 'warning',
      message: `${warning.path}: ${warning.message}`,
    });
  }
  if (!read.ok && read.line !== undefined) {
    marks.push({ line: read.line, severity: 'error', message: read.message ?? '' });
  }
  for (const unknown of read.unknown ?? []) {
    if (unknown.line !== undefined) {
      marks.push({ line: unknown.line, severity: 'error', message: `${unknown.action}: ${unknown.message}` });
    }
  }
  return marks;
}

/** The body preview of docs/reference/02-running.md §9: 100 characters. */
export const BODY_PREVIEW_CHARS = 100;
/** An Authorization header value is shown to 50 characters (§2, §9). */
export const AUTHORIZATION_PREVIEW_CHARS = 50;

export function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}

export function hasAuthorization(api: TaurusApi): boolean {
  return Object.keys(api.headers).some((name) => name.toLowerCase() === 'authorization');
}
