import {
  readTaurusScript,
  TaurusScriptError,
  type TaurusDataSource,
  type TaurusWarning,
} from '@aqa/converters';
import { ApiDefinitionSchema, type ApiDefinition, type FunctionalPlan } from '@aqa/plan';

/*
 * A script plan's Taurus YAML read for the script screen, for a run on the server and for `aqa test`
 * (docs/reference/02-running.md §3 "Taurus scripts", §7 "Script calls"): the calls the script makes with
 * their rules and captures, its load settings, its variables and data sources, and a warning for
 * everything it cannot run. Pure: the caller supplies the data files' text.
 */

export const SCRIPT_MESSAGES = {
  notRunnable: 'The script cannot run',
  missingFile: (file: string) =>
    `The data source ${file} is not supplied: add it to data_files, or the variables it sets stay unset`,
} as const;

/** An API the script calls, with where the script writes it. */
export type ScriptApi = ApiDefinition & { source: { path: string; line?: number } };

export interface ReadScript {
  apis: ScriptApi[];
  /** What the script's execution says; the screen fills the plan's fields with them. */
  execution: Pick<
    FunctionalPlan,
    'test_name' | 'concurrent_users' | 'iterations' | 'ramp_up_time' | 'test_duration' | 'think_time'
  >;
  variables: Record<string, string>;
  data_sources: TaurusDataSource[];
  warnings: TaurusWarning[];
}

/**
 * A script that cannot run: YAML that does not read (`line` says where), nothing in it runnable, or a
 * data source without its file. `warnings` lists every reason with its YAML path and line; the message
 * names them for a person.
 */
export class ScriptNotRunnable extends Error {
  override readonly name = 'ScriptNotRunnable';

  constructor(
    message: string,
    readonly warnings: TaurusWarning[],
    readonly line?: number,
  ) {
    super(message);
  }
}

function atLine(text: string, line: number | undefined): string {
  return line === undefined || text.includes(`line ${line}`) ? text : `${text} (line ${line})`;
}

/** Reads the script; refuses (ScriptNotRunnable) one that does not read or has nothing to run. */
export function readScript(script: string, files?: Readonly<Record<string, string>>): ReadScript {
  let read;
  try {
    read = readTaurusScript(script, files === undefined ? {} : { files });
  } catch (error) {
    if (!(error instanceof TaurusScriptError)) throw error;
    // The reader's message names every reason already, each with its path and line.
    throw new ScriptNotRunnable(atLine(error.message, error.line), error.warnings, error.line);
  }
  const warnings = [...read.warnings];
  const apis: ScriptApi[] = [];
  for (const { source, ...api } of read.apis) {
    const parsed = ApiDefinitionSchema.safeParse(api);
    if (parsed.success) {
      apis.push({ ...parsed.data, source });
      continue;
    }
    const problems = parsed.error.issues.map((i) => i.message).join('; ');
    warnings.push({
      path: source.path,
      ...(source.line === undefined ? {} : { line: source.line }),
      message: `This request cannot run (${problems}); it is skipped`,
      effect: 'skipped',
    });
  }
  if (apis.length === 0) {
    const refused = warnings.map((w) => ({ ...w, effect: 'refused' as const }));
    const reasons = refused.map((w) => atLine(`${w.path}: ${w.message}`, w.line));
    throw new ScriptNotRunnable(
      [`${SCRIPT_MESSAGES.notRunnable}: no request in it can run`, ...reasons].join('; '),
      refused,
    );
  }
  return {
    apis,
    execution: {
      test_name: read.test_name,
      concurrent_users: read.concurrent_users,
      iterations: read.iterations,
      ramp_up_time: read.ramp_up_time,
      test_duration: read.test_duration,
      think_time: read.think_time,
    },
    variables: read.variables,
    data_sources: read.data_sources,
    warnings,
  };
}

/**
 * The plan a script plan runs (docs/reference/02-running.md §7 "Script calls"): the script's calls in
 * its order, with the plan's own load settings as sent (the screen shows them, filled from the script,
 * and the user may change them) and its Global Validation Rules applied to every call. A data source
 * whose file is not in data_files refuses the run, naming the file.
 */
export function scriptRunPlan(plan: FunctionalPlan): { plan: FunctionalPlan; warnings: TaurusWarning[] } {
  const read = readScript(plan.script_content, plan.data_files);
  const missing = read.data_sources.filter((d) => !d.supplied);
  if (missing.length > 0) {
    const refused: TaurusWarning[] = missing.map((d) => ({
      path: d.source.path,
      ...(d.source.line === undefined ? {} : { line: d.source.line }),
      message: SCRIPT_MESSAGES.missingFile(d.path),
      effect: 'refused',
    }));
    throw new ScriptNotRunnable(refused.map((w) => w.message).join('; '), refused);
  }
  const apis = read.apis.map(({ source: _source, ...api }) => api);
  return { plan: { ...plan, apis }, warnings: read.warnings };
}
