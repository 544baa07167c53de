import {
  readScript as readEngineScript,
  SCRIPT_MESSAGES,
  ScriptNotRunnable,
  scriptRunPlan as engineScriptRunPlan,
  type ReadScript,
  type ScriptApi,
} from '@aqa/engine';
import type { TaurusWarning } from '@aqa/converters';
import type { FunctionalPlan } from '@aqa/plan';
import { ValidationError } from '../../errors';

/*
 * A script plan's Taurus YAML read for the script screen and for a run (docs/reference/02-running.md §3
 * "Taurus scripts", §7 "Script calls"). The reading lives in the engine, shared with `aqa test`; here a
 * refusal becomes the server's 400 SCRIPT_NOT_RUNNABLE.
 */

export { SCRIPT_MESSAGES, type ReadScript, type ScriptApi };

/**
 * A script that cannot run: YAML that does not read (`line` says where), or nothing in it runnable.
 * `warnings` lists every reason with its YAML path and line; `errors` names them for a person.
 */
export class ScriptNotRunnableError extends ValidationError {
  constructor(
    detail: string,
    readonly warnings: TaurusWarning[],
    readonly line?: number,
  ) {
    super(
      warnings.length === 0
        ? [{ field: 'script_content', message: detail }]
        : warnings.map((w) => ({ field: `script_content ${w.path}`, message: w.message })),
      { code: 'SCRIPT_NOT_RUNNABLE' },
    );
    // ValidationError joins the field messages; the reasons are said here in one sentence.
    this.message = detail;
  }
}

function served<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ScriptNotRunnable)) throw error;
    throw new ScriptNotRunnableError(error.message, error.warnings, error.line);
  }
}

/** Reads the script; refuses (ScriptNotRunnableError) one that does not read or has nothing to run. */
export function readScript(script: string, files?: Readonly<Record<string, string>>): ReadScript {
  return served(() => readEngineScript(script, files));
}

/** The plan a script plan runs (docs/reference/02-running.md §7 "Script calls"); see the engine's. */
export function scriptRunPlan(plan: FunctionalPlan): { plan: FunctionalPlan; warnings: TaurusWarning[] } {
  return served(() => engineScriptRunPlan(plan));
}
