import { scanCsv, withoutBom } from '../data-files';
import type { IterationData } from './functional-plan';

/*
 * A functional plan's data file read into rows, as Newman's `-d` reads one
 * (docs/adr/0029-postman-collections.md): CSV with a header row (comma-separated, double quotes
 * around a field that holds a comma, a quote or a line break), or a JSON array of objects. Each row is
 * one iteration's data variables. A malformed file is refused whole, naming its row or line, before a
 * call is sent.
 */

/** One iteration's data variables: name → value as text. */
export type IterationRow = Record<string, string>;

export class IterationDataError extends Error {
  override readonly name = 'IterationDataError';
}

/** A JSON value as a variable's text: a string as it is, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

function csvRows(name: string, text: string): IterationRow[] {
  const scan = scanCsv(withoutBom(text), ',', true);
  if (scan.unclosedQuoteLine !== undefined) {
    throw new IterationDataError(
      `The data file ${name} has a quoted field opened on line ${scan.unclosedQuoteLine} that is never closed`,
    );
  }
  const [header, ...rows] = scan.rows;
  if (header === undefined)
    throw new IterationDataError(`The data file ${name} is empty: it needs a header row`);
  const names = header.map((n) => n.trim());
  const blank = names.findIndex((n) => n === '');
  if (blank >= 0) {
    throw new IterationDataError(
      `The data file ${name} has a blank column name (column ${blank + 1} of its header row on line ${scan.lines[0]})`,
    );
  }
  return rows.map((row, r) => {
    if (row.length !== names.length) {
      throw new IterationDataError(
        `The data file ${name}: row ${r + 1} (line ${scan.lines[r + 1]}) has ${row.length} field(s) where the header row has ${names.length}`,
      );
    }
    return Object.fromEntries(names.map((n, c) => [n, row[c]!]));
  });
}

function jsonRows(name: string, text: string): IterationRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutBom(text));
  } catch (e) {
    throw new IterationDataError(`The data file ${name} is not JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(parsed)) {
    throw new IterationDataError(`The data file ${name} must hold a JSON array of objects, one an iteration`);
  }
  return parsed.map((row: unknown, r) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new IterationDataError(`The data file ${name}: row ${r + 1} is not a JSON object`);
    }
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, asText(v)]));
  });
}

/** The rows of a data file, one an iteration; throws an IterationDataError naming what is wrong. */
export function iterationRows(data: IterationData): IterationRow[] {
  return data.format === 'csv' ? csvRows(data.name, data.text) : jsonRows(data.name, data.text);
}

/** Why a data file cannot drive a run, or undefined when it can. */
export function iterationDataProblem(data: IterationData | undefined): string | undefined {
  return data === undefined ? undefined : readIterationData(data).problem;
}

export type IterationDataRead =
  { rows: IterationRow[]; problem?: undefined } | { rows?: undefined; problem: string };

/** The rows of a data file, or the problem that names the file and its row or line (the editor's reading). */
export function readIterationData(data: IterationData): IterationDataRead {
  try {
    return { rows: iterationRows(data) };
  } catch (e) {
    if (e instanceof IterationDataError) return { problem: e.message };
    throw e;
  }
}

/** The format a data file's name says: .json is JSON, anything else is read as CSV (as Newman reads `-d`). */
export function iterationDataFormatOf(fileName: string): IterationData['format'] {
  return /\.json$/i.test(fileName) ? 'json' : 'csv';
}
