import {
  readSeleniumScript,
  seleniumExecution,
  SeleniumScriptError,
  TaurusScriptError,
  type SeleniumPage,
  type TaurusWarning,
  type UnknownSeleniumAction,
} from '@aqa/converters';
import type { ScriptExecution } from './script-read';

/*
 * A Selenium-style script as the reader reads it (packages/converters, the code the UI runner and
 * POST /api/functional/parse-script run; docs/reference/02-running.md §3 "Selenium-style scripts"): the
 * pages the browser will open with their steps, the execution's iterations and the warnings, read in the
 * browser as the user types. A refused script answers its message, the first problem's line, and every
 * action the runner does not know with its line.
 */

export type SeleniumRead =
  | { ok: true; pages: SeleniumPage[]; execution: ScriptExecution; warnings: TaurusWarning[] }
  | {
      ok: false;
      message: string;
      line?: number;
      warnings: TaurusWarning[];
      unknown: UnknownSeleniumAction[];
    };

export function readSelenium(text: string): SeleniumRead {
  if (text.trim() === '') return { ok: false, message: '', warnings: [], unknown: [] };
  try {
    const read = readSeleniumScript(text);
    return {
      ok: true,
      pages: read.pages,
      execution: seleniumExecution(read),
      warnings: read.warnings,
    };
  } catch (error) {
    if (error instanceof SeleniumScriptError || error instanceof TaurusScriptError) {
      return {
        ok: false,
        message: error.message,
        ...(error.line === undefined ? {} : { line: error.line }),
        warnings: error.warnings,
        unknown: error instanceof SeleniumScriptError ? error.unknown : [],
      };
    }
    return {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      warnings: [],
      unknown: [],
    };
  }
}
