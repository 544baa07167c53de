import {
  readSeleniumScript,
  seleniumExecution,
  SeleniumScriptError,
  TaurusScriptError,
  type SeleniumPage,
  type SeleniumStep,
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

/** What a step acts on, as the script wrote it: its locators (fallbacks after the first), URL or text. */
export function stepTarget(step: SeleniumStep): string {
  switch (step.kind) {
    case 'go':
      return step.url;
    case 'assertTitle':
    case 'assertUrl':
      return step.expected;
    case 'assertPage':
      return step.text;
    case 'storeTitle':
      return step.variable;
    case 'storeString':
      return `${step.variable} = ${step.value}`;
    case 'pauseFor':
      return `${step.ms} ms`;
    case 'screenshot':
      return step.file ?? '';
    case 'keyDown':
    case 'keyUp':
      return step.key;
    case 'waitForExpression':
      return step.expression;
    case 'executeScript':
      return step.script;
    case 'echo':
      return step.text;
    case 'setViewport':
      return `${step.width}×${step.height}`;
    default:
      return step.locators.map((locator) => `${locator.by}: ${locator.value}`).join(' | ');
  }
}

/** The value a step types, chooses, expects or stores into, when it has one. */
export function stepValue(step: SeleniumStep): string | null {
  switch (step.kind) {
    case 'type':
      return step.text;
    case 'keys':
      return step.keys;
    case 'select':
      return step.option;
    case 'assertText':
    case 'assertValue':
    case 'assertSelectedLabel':
    case 'assertSelectedValue':
      return step.expected;
    case 'executeScript':
      return step.variable ?? null;
    case 'storeText':
    case 'storeValue':
      return step.variable;
    case 'waitFor':
      return `${step.state}, ${step.timeout_ms / 1000} s`;
    default:
      return null;
  }
}
