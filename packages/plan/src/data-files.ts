import { z } from 'zod';
import { noNul } from './strict-input';

/*
 * A plan's data files (name → CSV text) and the CSV reading shared by the functional runner
 * (docs/reference/02-running.md §3 "Taurus scripts") and performance plans' test data
 * (docs/adr/0027-load-profiles.md "Test data"). Browser-safe: the editor and the server refuse the
 * same file with the same words.
 */

/** Bytes of text as UTF-8 (the package runs in browsers and Node, without TextEncoder's types). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** The words of dataFilesSchema's bounds, so a screen can tell which one a set of files broke. */
export function dataFilesErrors(maxBytes: number, maxCount: number) {
  return {
    tooMany: `At most ${maxCount} data files`,
    tooLarge: `The data files together must be at most ${maxBytes / 1024 / 1024} MB`,
  };
}

/** Data files of at most `maxCount` files and `maxBytes` of UTF-8 together. */
export function dataFilesSchema(maxBytes: number, maxCount: number) {
  const errors = dataFilesErrors(maxBytes, maxCount);
  return z
    .record(z.string().min(1).max(255), noNul('Data file').max(maxBytes, errors.tooLarge))
    .refine((files) => Object.keys(files).length <= maxCount, { message: errors.tooMany })
    .refine((files) => Object.values(files).reduce((sum, text) => sum + utf8Length(text), 0) <= maxBytes, {
      message: errors.tooLarge,
    });
}

/** CSV text read into rows, with the line each row starts on (1-based). */
export interface CsvScan {
  rows: string[][];
  lines: number[];
  /** The line of a quoted field that the text ends inside, when it does. */
  unclosedQuoteLine?: number;
}

/**
 * CSV text as rows of fields. Quotes are read only when `quoted` (JMeter's "allow quoted data"): then
 * a field in double quotes may hold the delimiter, line breaks and "" for a quote. Blank lines are skipped.
 */
export function scanCsv(text: string, delimiter: string, quoted: boolean): CsvScan {
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 0;
  let i = 0;
  const endRow = (): void => {
    row.push(field);
    if (!(row.length === 1 && row[0] === '')) {
      rows.push(row);
      lines.push(rowLine);
    }
    row = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') inQuotes = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (quoted && c === '"' && field === '') {
      inQuotes = true;
      quoteLine = line;
      i++;
    } else if (text.startsWith(delimiter, i)) {
      row.push(field);
      field = '';
      i += delimiter.length;
    } else if (c === '\n' || c === '\r') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return inQuotes ? { rows, lines, unclosedQuoteLine: quoteLine } : { rows, lines };
}

/** Candidates when no delimiter is named, as Taurus guesses one from the header line. */
const GUESSED_DELIMITERS = [',', ';', '\t', '|'];

export function guessDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return GUESSED_DELIMITERS.find((d) => first.includes(d)) ?? ',';
}

/** Text without the byte order mark an exported spreadsheet may start with. */
export function withoutBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}
