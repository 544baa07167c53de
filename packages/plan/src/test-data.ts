import { z } from 'zod';
import { dataFilesErrors, dataFilesSchema, guessDelimiter, scanCsv, withoutBom } from './data-files';
import { oneLine } from './strict-input';
import { VARIABLE_NAME } from './template';

/*
 * A performance plan's test data (docs/adr/0027-load-profiles.md "Test data"): CSV files in
 * `data_files` and `data_sources` binding them, in the vocabulary of Taurus's data-sources (the
 * functional runner's, docs/reference/02-running.md §3) plus JMeter's sharing modes. Each iteration
 * takes the next row; its columns are `{{variables}}`.
 */

/** A performance plan's data files together (docs/adr/0027-load-profiles.md "Test data"). */
export const PERF_DATA_MAX_BYTES = 10 * 1024 * 1024;
export const PERF_DATA_MAX_COUNT = 20;
/** JMeter's CSV Data Set sharing modes: one cursor for the whole run, or one per virtual user. */
export const DATA_SHARE_MODES = ['all', 'user'] as const;
export type DataShare = (typeof DATA_SHARE_MODES)[number];

export const PerfDataFilesSchema = dataFilesSchema(PERF_DATA_MAX_BYTES, PERF_DATA_MAX_COUNT);
/** PerfDataFilesSchema's words for too many files and too many bytes. */
export const PERF_DATA_ERRORS = dataFilesErrors(PERF_DATA_MAX_BYTES, PERF_DATA_MAX_COUNT);

const VARIABLE_NAME_RULE = 'a letter or _, then letters, digits, _ . -';

/** Column names as a list, or as Taurus writes them: "id,email". */
const VariableNamesSchema = z
  .union([z.array(z.string().max(100)).max(200), z.string().max(20_000)], {
    error: () => 'variable_names must be a list of column names or one text of names separated by commas',
  })
  .transform((names) => (typeof names === 'string' ? names.split(',') : names).map((name) => name.trim()));

/** One CSV source of a performance plan. */
export const DataSourceSchema = z.object({
  /** The name of a file of `data_files`. */
  path: oneLine('Data source path').trim().min(1, 'Enter the data file of the data source').max(255),
  /** Guessed from the first line (, ; tab |) when absent, as Taurus does. */
  delimiter: z
    .string()
    .min(1, 'A delimiter cannot be empty')
    .max(4, 'A delimiter is at most 4 characters')
    .refine((d) => !/["\r\n]/.test(d), 'A delimiter cannot hold a double quote or a line break')
    .optional(),
  /** At the end of the rows start over (Taurus's default); false: a user that finds no row left ends. */
  loop: z.boolean({ error: () => 'loop must be true or false' }).default(true),
  /** Hand the rows out in a shuffled order, the same order on every worker and agent of the run. */
  random_order: z.boolean({ error: () => 'random_order must be true or false' }).default(false),
  /** Column names; when given, the file's first line is a row of data, not a header. */
  variable_names: VariableNamesSchema.optional(),
  share: z
    .enum(DATA_SHARE_MODES, { error: () => `share must be one of ${DATA_SHARE_MODES.join(', ')}` })
    .default('all'),
});
export type DataSource = z.infer<typeof DataSourceSchema>;
export type DataSourceInput = z.input<typeof DataSourceSchema>;

/** The plan fields of test data, one block so that other fields merge beside it. */
export const testDataFields = {
  /** Name → CSV text, at most 20 files and 10 MB together. */
  data_files: PerfDataFilesSchema.optional(),
  data_sources: z.array(DataSourceSchema).max(20).optional(),
};

/** A data source read: its columns and rows, every row as wide as the columns. */
export interface DataTable {
  path: string;
  names: string[];
  rows: string[][];
  loop: boolean;
  random_order: boolean;
  share: DataShare;
}

type DataSourceRead = { table: DataTable; problems: [] } | { table?: undefined; problems: string[] };

/**
 * The last files read, in a browser only: the plan editor checks the whole plan on every keystroke, and
 * a file of 10 MB read again each time would hold the page. At most PERF_DATA_MAX_BYTES of text is kept.
 * The server reads each body once and keeps nothing (docs/adr/0024-memory-bounds.md).
 */
const recentReads: { key: string; text: string; read: DataSourceRead }[] = [];
const inBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined';

/**
 * Reads one source's file; the problems name the file and the line. The table is shared with later
 * callers that read the same file: not to be changed.
 */
export function readDataSource(source: DataSource, text: string): DataSourceRead {
  if (!inBrowser) return readDataSourceNow(source, text);
  const key = JSON.stringify([
    source.path,
    source.delimiter,
    source.variable_names,
    source.loop,
    source.random_order,
    source.share,
  ]);
  const hit = recentReads.find((r) => r.key === key && r.text === text);
  if (hit) return hit.read;
  const read = readDataSourceNow(source, text);
  recentReads.unshift({ key, text, read });
  let kept = 0;
  const keep = recentReads.findIndex((r) => (kept += r.text.length) > PERF_DATA_MAX_BYTES);
  if (keep > 0) recentReads.length = keep;
  return read;
}

function readDataSourceNow(source: DataSource, text: string): DataSourceRead {
  const file = JSON.stringify(source.path);
  const body = withoutBom(text);
  const scan = scanCsv(body, source.delimiter ?? guessDelimiter(body), true);
  const problems: string[] = [];
  if (scan.unclosedQuoteLine !== undefined)
    problems.push(`Data file ${file} line ${scan.unclosedQuoteLine}: a quoted field is not closed`);
  const rows = scan.rows;
  const lines = scan.lines;
  let names: string[];
  let widthFrom: string;
  if (source.variable_names !== undefined) {
    names = source.variable_names;
    widthFrom = `variable_names names ${names.length}`;
  } else {
    names = (rows.shift() ?? []).map((name) => name.trim());
    lines.shift();
    widthFrom = `the header has ${names.length}`;
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!VARIABLE_NAME.test(name))
      problems.push(
        `Data file ${file}: column ${JSON.stringify(name)} is not a variable name (${VARIABLE_NAME_RULE})`,
      );
    else if (seen.has(name))
      problems.push(`Data file ${file}: column ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  }
  if (names.length === 0) problems.push(`Data file ${file} has no header line naming its columns`);
  else if (rows.length === 0) problems.push(`Data file ${file} has no rows of data`);
  for (let r = 0; r < rows.length; r++) {
    const width = rows[r]!.length;
    if (names.length > 0 && width !== names.length) {
      problems.push(
        `Data file ${file} line ${lines[r]}: ${width} field${width === 1 ? '' : 's'} where ${widthFrom}`,
      );
      // One line is enough to find the file's mistake; a file of a million bad lines is not listed whole.
      break;
    }
  }
  if (problems.length > 0) return { problems };
  const table = {
    path: source.path,
    names,
    rows,
    loop: source.loop,
    random_order: source.random_order,
    share: source.share,
  };
  return { table, problems: [] };
}

interface TestDataPlan {
  data_files?: Record<string, string> | undefined;
  data_sources?: DataSource[] | undefined;
}

/** Every problem of a plan's test data, with its path (`data_sources[0].path`, …). */
export function testDataProblems(plan: TestDataPlan): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const files = plan.data_files ?? {};
  const owner = new Map<string, string>();
  (plan.data_sources ?? []).forEach((source, index) => {
    if (!Object.hasOwn(files, source.path)) {
      problems.push({
        path: ['data_sources', index, 'path'],
        message: `Data source ${JSON.stringify(source.path)} names no file of the plan's data_files`,
      });
      return;
    }
    const read = readDataSource(source, files[source.path]!);
    for (const message of read.problems) problems.push({ path: ['data_files', source.path], message });
    if (read.table === undefined) return;
    for (const name of read.table.names) {
      const other = owner.get(name);
      if (other !== undefined)
        problems.push({
          path: ['data_sources', index, 'variable_names'],
          message: `Column ${JSON.stringify(name)} of ${JSON.stringify(source.path)} is also a column of ${JSON.stringify(other)}: rename one in variable_names`,
        });
      else owner.set(name, source.path);
    }
  });
  return problems;
}

/** The plan's data sources read, in order; throws the first problem (a plan the schema accepted has none). */
export function readTestData(plan: TestDataPlan): DataTable[] {
  const files = plan.data_files ?? {};
  return (plan.data_sources ?? []).map((source) => {
    const text = files[source.path];
    if (text === undefined) throw new Error(`Data source ${JSON.stringify(source.path)} names no data file`);
    const read = readDataSource(source, text);
    if (read.table === undefined) throw new Error(read.problems.join('; '));
    return read.table;
  });
}

/** mulberry32: small, fast, and the same sequence on every machine (the same order on every worker and agent). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The rows in the order of a Fisher–Yates shuffle seeded with `seed`. */
export function shuffledRows<T>(rows: readonly T[], seed: number): T[] {
  const out = rows.slice();
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

/** The `{{variables}}` a plan's data sources give each iteration. */
export function dataColumns(plan: TestDataPlan): string[] {
  return readTestData(plan).flatMap((table) => table.names);
}
