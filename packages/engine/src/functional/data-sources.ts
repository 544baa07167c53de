import { readTaurusScript, TaurusScriptError, type TaurusDataSource } from '@aqa/converters';
import { type FunctionalPlan, guessDelimiter, kindOf, scanCsv, withoutBom } from '@aqa/plan';

/*
 * A script plan's CSV data sources and starting variables (docs/reference/02-running.md §3 "Taurus
 * scripts", §7 "Script calls"), with the semantics of Taurus's data-sources (JMeter's CSV Data Set):
 * the rows are shared by every user, each iteration of each user takes the next row, and at the end of
 * the file a looping source starts over while a non-looping one ends the iterations of the user that
 * finds no row left.
 */

/** One data source: its column names and rows, and the next row to hand out. */
export class DataFeed {
  private next = 0;

  constructor(
    readonly path: string,
    readonly names: string[],
    readonly rows: string[][],
    readonly loop: boolean,
  ) {}

  /** How many rows have been handed out. */
  get taken(): number {
    return this.next;
  }

  /** The next row, or null when a non-looping source has none left (or the file has no rows). */
  take(): string[] | null {
    if (this.rows.length === 0) return null;
    if (this.next >= this.rows.length && !this.loop) return null;
    return this.rows[this.next++ % this.rows.length]!;
  }
}

export interface ScriptData {
  /** The script's variables: where nothing else sets a name, its value from the start. */
  variables: Record<string, string>;
  feeds: DataFeed[];
}

/**
 * CSV text as rows of fields. Quotes are read only when `quoted` (JMeter's "allow quoted data"): then
 * a field in double quotes may hold the delimiter, line breaks and "" for a quote. Blank lines are
 * skipped. The plan's reader (@aqa/plan data-files.ts), which performance plans' test data uses too.
 */
export function parseCsv(text: string, delimiter: string, quoted: boolean): string[][] {
  return scanCsv(text, delimiter, quoted).rows;
}

function feedOf(source: TaurusDataSource, text: string): DataFeed {
  const delimiter = source.delimiter ?? guessDelimiter(text);
  const rows = parseCsv(withoutBom(text), delimiter, source.quoted);
  const names = source.variable_names ?? (rows.shift() ?? []).map((n) => n.trim());
  return new DataFeed(source.path, names, rows, source.loop);
}

/**
 * What a script plan's data sources and variables hand its users; null for a plan without a script.
 * The server refuses a run whose data files are missing, so a source without its file is left out here.
 */
export function scriptData(plan: FunctionalPlan): ScriptData | null {
  if (kindOf(plan) !== 'script' || plan.script_content.trim() === '') return null;
  const files = plan.data_files ?? {};
  try {
    const read = readTaurusScript(plan.script_content, { files });
    const feeds = read.data_sources
      .filter((source) => Object.hasOwn(files, source.path))
      .map((source) => feedOf(source, files[source.path]!));
    return { variables: read.variables, feeds };
  } catch (error) {
    // A script that does not read runs the plan's own APIs, with no data.
    if (error instanceof TaurusScriptError) return null;
    throw error;
  }
}
