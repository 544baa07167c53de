import type { ImportResult } from './import-model';
import { type ImportSource, sourceName, sourceText } from './read-document';
import { TABLE_COLUMNS, tableToPlan } from './table-to-plan';

/**
 * CSV files in the table layout of table-to-plan.ts → plan steps. RFC 4180 quoting (quoted fields may
 * hold the separator, "" and new lines); the separator is the comma, or the semicolon or tab when the first
 * row uses that instead (spreadsheet programs in many locales write ";"), or what an Excel "sep=" line says.
 */
export function csvToPlan(source: ImportSource): ImportResult {
  const file = sourceName(source);
  return tableToPlan(parseCsv(sourceText(source)), file, 'csv');
}

export function parseCsv(text: string): string[][] {
  let body = text.replace(/^\uFEFF/, '');
  let separator: string | undefined;
  const hint = /^sep=(.)\r?\n/i.exec(body);
  if (hint) {
    separator = hint[1];
    body = body.slice(hint[0].length);
  }
  separator ??= detectSeparator(body);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  // Whether the field so far is only spaces, kept as it grows: trimming the field at every '"' would
  // read a long field over and over (a 200 kB field full of quotes took seconds).
  let blank = true;
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += ch;
      }
      continue;
    }
    if (ch === '"' && blank) {
      field = '';
      blank = false;
      quoted = true;
    } else if (ch === separator) {
      row.push(field);
      field = '';
      blank = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      blank = true;
    } else {
      field += ch;
      if (blank && ch.trim() !== '') blank = false;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function detectSeparator(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const [separator, count] of counts) if (count > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/** One CSV field, quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The sample rows offered for download: the layout's columns and three calls that use them. */
export const SAMPLE_TABLE: readonly (readonly string[])[] = [
  [
    'name',
    'method',
    'url',
    'headers',
    'params',
    'body',
    'thinkTime',
    'authType',
    'authToken',
    'extractType',
    'extractName',
    'extractValue',
    'assertionType',
    'assertionPath',
    'assertionOperator',
    'assertionValue',
  ],
  [
    'List users',
    'GET',
    'https://api.example.com/users',
    'Accept: application/json',
    'page=1&limit=20',
    '',
    '1s',
    '',
    '',
    '',
    '',
    '',
    'status',
    '',
    'equals',
    '200',
  ],
  [
    'Create user',
    'POST',
    'https://api.example.com/users',
    'Content-Type: application/json; Accept: application/json',
    '',
    '{"name":"Ada Lovelace","role":"admin"}',
    '2s',
    'bearer',
    'YOUR_TOKEN',
    'json',
    'userId',
    '$.id',
    'json',
    '$.name',
    'equals',
    'Ada Lovelace',
  ],
  [
    'Get user',
    'GET',
    'https://api.example.com/users/{{userId}}',
    'Accept: application/json',
    '',
    '',
    '1s',
    'bearer',
    'YOUR_TOKEN',
    '',
    '',
    '',
    'text',
    '',
    'contains',
    'Ada',
  ],
];

/** A CSV file in the import layout, for the screen to offer as a download (sample.csv). */
export function sampleCsv(): string {
  return `${SAMPLE_TABLE.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Every column of the layout, for the screen's help: name, other accepted names, meaning, example. */
export { TABLE_COLUMNS };
