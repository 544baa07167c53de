import {
  readScript as readEngineScript,
  SCRIPT_MESSAGES,
  ScriptNotRunnable,
  scriptRunPlan as engineScriptRunPlan,
  type ReadScript,
  type ScriptApi,
} from '@aqa/engine';
import {
  readSeleniumScript,
  seleniumExecution,
  SeleniumScriptError,
  taurusScriptFramework,
  TaurusScriptError,
  type TaurusWarning,
} from '@aqa/converters';
import {
  ApiDefinitionSchema,
  type FunctionalPlan,
  kindOf,
  type TEST_FRAMEWORKS,
  type UiAction,
} from '@aqa/plan';
import { ValidationError } from '../../errors';

/*
 * A script plan's Taurus YAML read for the script screen and for a run (docs/reference/02-running.md §3
 * "Taurus scripts", "Selenium-style scripts", §7 "Script calls"). The reading lives in the engine (Taurus,
 * shared with `aqa test`) and the converters (Selenium, shared with the UI runner); here a refusal
 * becomes the server's 400 SCRIPT_NOT_RUNNABLE.
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

function atLine(text: string, line: number | undefined): string {
  return line === undefined || text.includes(`line ${line}`) ? text : `${text} (line ${line})`;
}

/**
 * Runs a reading, turning a script refusal into ScriptNotRunnableError: the engine's, the Taurus
 * reader's (YAML that does not read, nothing runnable), and the Selenium reader's, whose every unknown
 * action becomes a refused warning with its name and line.
 */
export function servedScript<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ScriptNotRunnable)
      throw new ScriptNotRunnableError(error.message, error.warnings, error.line);
    if (error instanceof SeleniumScriptError) {
      const unknown: TaurusWarning[] = error.unknown.map((u) => ({
        path: u.path,
        ...(u.line === undefined ? {} : { line: u.line }),
        // The reader's message follows the action's name: "hoverByID is not an action AnybodyQA runs (…)".
        message: `${u.action} ${u.message}`,
        effect: 'refused',
      }));
      throw new ScriptNotRunnableError(error.message, [...unknown, ...error.warnings], error.line);
    }
    if (error instanceof TaurusScriptError)
      throw new ScriptNotRunnableError(atLine(error.message, error.line), error.warnings, error.line);
    throw error;
  }
}

/** Reads the script; refuses (ScriptNotRunnableError) one that does not read or has nothing to run. */
export function readScript(script: string, files?: Readonly<Record<string, string>>): ReadScript {
  return servedScript(() => readEngineScript(script, files));
}

/** The plan a script plan runs (docs/reference/02-running.md §7 "Script calls"); see the engine's. */
export function scriptRunPlan(plan: FunctionalPlan): { plan: FunctionalPlan; warnings: TaurusWarning[] } {
  return servedScript(() => engineScriptRunPlan(plan));
}

type TestFramework = (typeof TEST_FRAMEWORKS)[number];

/**
 * How a script is read and run (docs/reference/02-running.md §3 "Selenium-style scripts"): as the UI
 * runner reads it when the plan names selenium or when every execution of the script runs in a browser
 * (executor selenium, or apiritif with test-mode selenium) — the Taurus reading could run none of those —
 * else as Taurus HTTP calls. parse-script and run-test decide alike.
 */
export function scriptFramework(script: string, named: TestFramework | undefined): TestFramework {
  return named === 'selenium' ? 'selenium' : taurusScriptFramework(script);
}

/** A script plan whose script runs in a browser, with test_framework saying so; any other plan as it is. */
export function withScriptFramework(plan: FunctionalPlan): FunctionalPlan {
  if (kindOf(plan) !== 'script' || plan.test_framework === 'selenium') return plan;
  return scriptFramework(plan.script_content, plan.test_framework) === 'selenium'
    ? { ...plan, test_framework: 'selenium' }
    : plan;
}

/** A Selenium-style script read for the script screen: its pages in ReadScript's shape, with their actions. */
export type ReadSeleniumScript = Omit<ReadScript, 'apis'> & {
  apis: (ScriptApi & { actions: UiAction[] })[];
};

/**
 * Reads a Selenium-style script for the script screen (POST /api/functional/parse-script with
 * test_framework selenium): each page as an API of the list (its name, its URL or '' when it acts on
 * the page the previous one left, GET) with its actions, the execution's iterations, and the warnings.
 * Refuses (ScriptNotRunnableError) a script with an unknown action, naming each with its line.
 */
export function readSelenium(script: string): ReadSeleniumScript {
  const read = servedScript(() => readSeleniumScript(script));
  return {
    apis: read.pages.map((page) => ({
      // Name and URL as the reader gave them, which the UI runner uses: none is refused here.
      ...ApiDefinitionSchema.parse({ method: 'GET' }),
      name: page.name,
      url: page.url ?? '',
      source: page.source,
      // The actions in the UI action model, each with its source (docs/adr/0030-recorded-ui-tests.md §1).
      actions: page.actions,
    })),
    execution: seleniumExecution(read),
    variables: read.variables,
    data_sources: [],
    warnings: read.warnings,
  };
}
