import type { Capture, FunctionalValidationInput, HttpMethod, LoadProfile } from '@aqa/plan';

/*
 * What the Taurus reader answers (docs/reference/02-running.md §3 "Taurus scripts"): the functional
 * plan fields a read script fills, what the caller must still supply (data files), and a warning for
 * everything it cannot run. Plain values, no zod: the plan's schema reads them (FunctionalPlanInput).
 */

/** What happens to a construct the reader cannot run: left out of the run, or the whole script refused. */
export type TaurusWarningEffect = 'skipped' | 'refused';

export interface TaurusWarning {
  /** The YAML path: "execution[0].executor", "scenarios.login.requests[2].assert[0]". */
  path: string;
  /** The script line (1-based) the path is written on, when known. */
  line?: number;
  message: string;
  effect: TaurusWarningEffect;
}

/** One API the read script calls, in the model's input shape (ApiDefinitionInput). */
export interface TaurusApi {
  name: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
  params: { name: string; value: string }[];
  /** Whole seconds; left out when the script sets none (the model's 30 s). */
  timeout?: number;
  validations: FunctionalValidationInput[];
  captures: Capture[];
  /** Where the request is written, for the screen: its YAML path and line. */
  source: { path: string; line?: number };
}

/** A CSV data source the script names. The reader reads no files: the caller supplies them. */
export interface TaurusDataSource {
  /** The file as the script names it. */
  path: string;
  /** The delimiter, or null when Taurus would detect it. */
  delimiter: string | null;
  /** Start over at the end of the file (Taurus's default), else stop the user. */
  loop: boolean;
  /** Whether quoted values are read as quoted. */
  quoted: boolean;
  /** Column names the script gives (variable-names), or null when the file's first row names them. */
  variable_names: string[] | null;
  /** Whether the caller said it has the file (options.files). */
  supplied: boolean;
  /** Where the data source is written. */
  source: { path: string; line?: number };
}

export interface TaurusReadResult {
  /** The scenario's name (or the execution's when the scenario is written inline). */
  test_name: string;
  apis: TaurusApi[];
  concurrent_users: number;
  iterations: number;
  /** Seconds. */
  ramp_up_time: number;
  /** Minutes. */
  test_duration: number;
  /** Seconds. */
  think_time: number;
  /**
   * The scenarios' `variables`, after their own ${...} became {{...}}. A variable that nothing in the
   * script sets again (no extractor, no data source column) is already put into the calls' text where
   * they use it; the others keep {{name}} and start from this value.
   */
  variables: Record<string, string>;
  data_sources: TaurusDataSource[];
  warnings: TaurusWarning[];
  /**
   * Read for a performance plan (TaurusReadOptions.purpose): the first execution's load as the plan's
   * users, minutes and load profile, and the scenario's think time in milliseconds.
   */
  performance?: TaurusPerformanceLoad & { think_time_ms: number };
}

/** Why a script whose YAML holds no map of settings is refused, by either reader. */
export const NOT_TAURUS_CONFIGURATION =
  'This is not a Taurus configuration: no YAML document in it is a map of settings such as execution and scenarios';

/** A script with nothing it can run, or one that is not a Taurus configuration at all. */
export class TaurusScriptError extends Error {
  override readonly name = 'TaurusScriptError';
  readonly warnings: TaurusWarning[];
  readonly line: number | undefined;

  constructor(message: string, warnings: TaurusWarning[] = [], line?: number) {
    super(message);
    this.warnings = warnings;
    this.line = line;
  }
}

export interface TaurusReadOptions {
  /**
   * Files the caller holds, by the name the script uses, with their text: a body-file becomes the body,
   * a data source counts as supplied and its first row names its columns.
   */
  files?: Readonly<Record<string, string>>;
  /** Read for a functional test (the default) or for a performance plan, with its load profile. */
  purpose?: TaurusReadPurpose;
}

/**
 * What the script is read for: a functional test (docs/reference/02-running.md §3 "Taurus scripts"),
 * or a performance plan with the execution's load profile (docs/adr/0027-load-profiles.md "Importers").
 */
export type TaurusReadPurpose = 'functional' | 'performance';

/** The load a performance plan takes from the execution (taurus-load-profile.ts). */
export interface TaurusPerformanceLoad {
  concurrent_users: number;
  /** Minutes. */
  duration: number;
  /** Absent for a flat load of whole minutes, which the plan's users and minutes say alone. */
  load_profile?: LoadProfile;
}
