import { scanCsv, withoutBom } from '../data-files';
import type { IterationData } from './functional-plan';

/*
 * A data file that drives a functional run's iterations as Newman's `-d` does
 * (docs/adr/0029-postman-collections.md §3): one iteration per row, each row's values the iteration's
 * data variables. CSV: the first line names the columns (comma-separated, quotes as RFC 4180); JSON: an
 * array of objects, whose values are read as text (a number 3 as "3", an object as its JSON). One
 * reader for the runner, the import and the editor, so a file is judged alike everywhere.
 */

export type IterationRow = Record<string, string>;

export type IterationDataRead =
  { rows: IterationRow[]; problem?: undefined } | { rows?: undefined; problem: string };

/** The most rows a data file may give: one iteration each. */
export const MAX_ITERATION_ROWS = 100_000;

/** A JSON value as a data variable's text: a string as it is, null as empty, the rest as JSON ("3", "true", "[1]"). */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === null ? '' : JSON.stringify(value);

function readJson(name: string, text: string): IterationDataRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { problem: `Data file ${name} is not valid JSON: ${(e as Error).message}` };
  }
  if (!Array.isArray(parsed))
    return { problem: `Data file ${name} must hold a JSON array of objects, one per iteration` };
  const rows: IterationRow[] = [];
  for (const [i, item] of parsed.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { problem: `Data file ${name}: item ${i + 1} is not an object of column values` };
    rows.push(
      Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([k, v]) => [k, asText(v)])),
    );
  }
  return { rows };
}

function readCsv(name: string, text: string): IterationDataRead {
  const scan = scanCsv(text, ',', true);
  if (scan.unclosedQuoteLine !== undefined)
    return { problem: `Data file ${name} line ${scan.unclosedQuoteLine}: a quoted field is not closed` };
  const [header, ...body] = scan.rows;
  if (header === undefined || header.every((h) => h.trim() === ''))
    return { problem: `Data file ${name} has no header line naming its columns` };
  const names = header.map((h) => h.trim());
  const rows: IterationRow[] = [];
  for (const [i, cells] of body.entries()) {
    // A blank line (a trailing newline's) is no row, as Newman reads a CSV.
    if (cells.length === 1 && cells[0] === '') continue;
    if (cells.length > names.length)
      return {
        problem: `Data file ${name} line ${scan.lines[i + 1] ?? i + 2}: ${cells.length} values where the header names ${names.length} columns`,
      };
    rows.push(Object.fromEntries(names.map((n, c) => [n, cells[c] ?? ''])));
  }
  return { rows };
}

/** The rows of a data file, or the problem that names the file and the line or item. */
export function readIterationData(data: IterationData): IterationDataRead {
  const name = JSON.stringify(data.name);
  const text = withoutBom(data.text);
  const read = data.format === 'json' ? readJson(name, text) : readCsv(name, text);
  if (read.rows !== undefined && read.rows.length > MAX_ITERATION_ROWS)
    return {
      problem: `Data file ${name} has ${read.rows.length} rows: at most ${MAX_ITERATION_ROWS} (one iteration each)`,
    };
  if (read.rows !== undefined && read.rows.length === 0) return { problem: `Data file ${name} has no rows` };
  return read;
}

/** The format a data file's name says: .json is JSON, anything else is read as CSV (Newman's rule). */
export function iterationDataFormatOf(fileName: string): IterationData['format'] {
  return /\.json$/i.test(fileName) ? 'json' : 'csv';
}
