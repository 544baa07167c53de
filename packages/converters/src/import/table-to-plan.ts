import { type UrlEntry, UrlEntrySchema } from '@aqa/plan';
import {
  countMethods,
  type ImportFormat,
  ImportError,
  type ImportResult,
  type ImportWarning,
  makeStep,
  type StepDraft,
  type StepSource,
  neededValues,
} from './import-model';
import { valueNestsTooDeep } from './nesting';
import { parseQueryString, splitQuery, toPlanUrl, urlPath } from './url-tools';

/**
 * The spreadsheet layout shared by the CSV and Excel importers: the first row names the columns (in any
 * order, any case; spaces, _ and - are ignored, so "Think time", "think_time" and "thinkTime" are one
 * column), and each following row is one API call. Only `url` is required.
 */

export interface TableColumn {
  /** The name written in the sample file. */
  column: string;
  /** Other names accepted for the same column. */
  aliases: readonly string[];
  description: string;
  example: string;
}

export const TABLE_COLUMNS: readonly TableColumn[] = [
  {
    column: 'name',
    aliases: ['api name', 'api', 'title', 'label'],
    description: 'The API name shown in the plan; METHOD /path when blank',
    example: 'List users',
  },
  {
    column: 'method',
    aliases: ['http method', 'verb'],
    description: 'GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS; GET when blank',
    example: 'GET',
  },
  {
    column: 'url',
    aliases: ['endpoint', 'uri', 'address', 'request url'],
    description: 'Full URL (http:// is added when missing); a query string becomes parameters',
    example: 'https://api.example.com/users',
  },
  {
    column: 'headers',
    aliases: ['header', 'request headers'],
    description: 'Name: value pairs separated by ";" or new lines (or a JSON object)',
    example: 'Accept: application/json; X-Trace: 1',
  },
  {
    column: 'params',
    aliases: ['parameters', 'query', 'query params', 'query parameters'],
    description: 'Query parameters as a=1&b=2 (or new lines, or a JSON object)',
    example: 'page=1&limit=20',
  },
  {
    column: 'body',
    aliases: ['payload', 'request body', 'data'],
    description: 'Request body text, sent with POST, PUT and PATCH',
    example: '{"name":"Ada"}',
  },
  {
    column: 'thinkTime',
    aliases: ['think', 'pause', 'delay'],
    description: 'Pause after the call: 1000ms, 2s or a number of seconds',
    example: '1s',
  },
  {
    column: 'timeout',
    aliases: ['timeout s', 'timeout seconds'],
    description: 'Seconds, 1 to 300; 30 when blank',
    example: '30',
  },
  {
    column: 'transactionRate',
    aliases: ['rate', 'transaction rate percent'],
    description: 'Percent chance a user runs this call each iteration; 100 when blank',
    example: '100',
  },
  {
    column: 'authType',
    aliases: ['auth', 'authorization', 'authorization type'],
    description: 'none, bearer, basic, api_key or oauth2',
    example: 'bearer',
  },
  {
    column: 'authToken',
    aliases: ['token', 'bearer token', 'access token'],
    description: 'Bearer token, or clientId:clientSecret for oauth2',
    example: 'YOUR_TOKEN',
  },
  {
    column: 'authUsername',
    aliases: ['username', 'user'],
    description: 'Basic authentication user name',
    example: '',
  },
  {
    column: 'authPassword',
    aliases: ['password'],
    description: 'Basic authentication password',
    example: '',
  },
  {
    column: 'authKeyName',
    aliases: ['api key name', 'key name'],
    description: 'API key name (header or query parameter)',
    example: '',
  },
  {
    column: 'authKeyValue',
    aliases: ['api key value', 'key value', 'api key'],
    description: 'API key value',
    example: '',
  },
  {
    column: 'authKeyIn',
    aliases: ['api key in', 'key in', 'api key location'],
    description: 'header or query; header when blank',
    example: '',
  },
  {
    column: 'authTokenUrl',
    aliases: ['token url', 'oauth2 token url'],
    description: 'OAuth2 client-credentials token URL',
    example: '',
  },
  { column: 'authScope', aliases: ['scope', 'oauth2 scope'], description: 'OAuth2 scope', example: '' },
  { column: 'extractType', aliases: [], description: 'json, regex, xml or text', example: 'json' },
  {
    column: 'extractName',
    aliases: ['variable', 'variable name'],
    description: 'Variable that later calls use as {{name}}',
    example: 'userId',
  },
  {
    column: 'extractValue',
    aliases: ['extract path', 'extract expression'],
    description: 'JSONPath, regular expression, XPath or text boundaries',
    example: '$.id',
  },
  { column: 'assertionType', aliases: [], description: 'json, text, xml or status', example: 'status' },
  {
    column: 'assertionPath',
    aliases: [],
    description: 'JSONPath or XPath for json and xml assertions',
    example: '',
  },
  {
    column: 'assertionOperator',
    aliases: ['operator'],
    description: 'equals, contains, regex or not_equals',
    example: 'equals',
  },
  {
    column: 'assertionValue',
    aliases: ['expected', 'expected value'],
    description: 'The expected value',
    example: '200',
  },
];

const normalize = (name: string) => name.toLowerCase().replace(/[\s_\-.]/g, '');

const COLUMN_BY_ALIAS = new Map<string, string>();
for (const { column, aliases } of TABLE_COLUMNS) {
  COLUMN_BY_ALIAS.set(normalize(column), column);
  for (const alias of aliases) COLUMN_BY_ALIAS.set(normalize(alias), column);
}

const MAX_PROBLEMS = 20;

/**
 * Rows (the first names the columns) → plan steps. Rows that are wholly blank are skipped; a row whose
 * values the model refuses makes the whole file refused, with every such problem listed by row and column.
 */
export function tableToPlan(
  rows: string[][],
  file: string,
  format: Extract<ImportFormat, 'csv' | 'excel'>,
): ImportResult {
  const headerIndex = rows.findIndex((row) => row.some((cell) => cell.trim() !== ''));
  const header = rows[headerIndex];
  if (header === undefined) throw new ImportError(file, 'the file has no rows');
  const columns = header.map((cell) => COLUMN_BY_ALIAS.get(normalize(cell)));
  const warnings: ImportWarning[] = [];
  if (!columns.includes('url')) {
    const found = header.filter((c) => c.trim() !== '').join(', ') || 'none';
    throw new ImportError(
      file,
      `the first row must name the columns, with at least a "url" column; this file's columns are ${found}. Expected layout: ${TABLE_COLUMNS.slice(
        0,
        7,
      )
        .map((c) => c.column)
        .join(', ')}, … (download the sample file for all of them)`,
    );
  }
  const unknown = header.filter((cell, i) => cell.trim() !== '' && columns[i] === undefined);
  if (unknown.length > 0) {
    warnings.push({
      location: 'row 1',
      message: `Column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not part of the layout and ${unknown.length > 1 ? 'are' : 'is'} ignored`,
    });
  }

  const steps: UrlEntry[] = [];
  const sources: StepSource[] = [];
  const methods: string[] = [];
  const problems: string[] = [];
  for (let r = headerIndex + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    if (row.every((cell) => cell.trim() === '')) continue;
    const location = `row ${r + 1}`;
    const cell = (column: string): string => {
      const i = columns.indexOf(column);
      return i === -1 ? '' : (row[i] ?? '').trim();
    };
    const method = (cell('method') || 'GET').toUpperCase();
    methods.push(method);
    const rawUrl = cell('url');
    const split = splitQuery(rawUrl);
    const url = rawUrl === '' ? '' : toPlanUrl(split.base);
    const draft: StepDraft = {
      name: cell('name') || `${method} ${url === '' ? '' : urlPath(url)}`.trim(),
      method,
      url,
      parameters: [
        ...split.query,
        ...pairsCell(cell('params'), '&', '=').map(([key, value]) => ({ key, value })),
      ],
      headers: pairsCell(cell('headers'), ';', ':').map(([name, value]) => ({ name, value })),
      payload: rawCell(row, columns, 'body'),
      authorization: {
        type: cell('authType') || 'none',
        token: cell('authToken'),
        username: cell('authUsername'),
        password: cell('authPassword'),
        keyName: cell('authKeyName'),
        keyValue: cell('authKeyValue'),
        in: (cell('authKeyIn').toLowerCase() || 'header') as 'header' | 'query',
        tokenUrl: cell('authTokenUrl'),
        scope: cell('authScope'),
      },
    };
    const optional: [keyof StepDraft, string][] = [
      ['thinkTime', 'thinkTime'],
      ['timeout', 'timeout'],
      ['transactionRate', 'transactionRate'],
      ['extractType', 'extractType'],
      ['extractName', 'extractName'],
      ['extractValue', 'extractValue'],
      ['assertionType', 'assertionType'],
      ['assertionPath', 'assertionPath'],
      ['assertionOperator', 'assertionOperator'],
      ['assertionValue', 'assertionValue'],
    ];
    for (const [field, column] of optional) {
      const value = cell(column);
      if (value !== '')
        Object.assign(draft, {
          [field]: ['extractType', 'assertionType', 'assertionOperator'].includes(field)
            ? value.toLowerCase()
            : value,
        });
    }
    const checked = UrlEntrySchema.safeParse({ ...draft, headers: [] });
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '');
        const column =
          field === 'payload'
            ? 'body'
            : field === 'parameters'
              ? 'params'
              : field === 'authorization'
                ? (AUTH_COLUMNS[String(issue.path[1])] ?? 'authType')
                : field;
        problems.push(
          `${location}, ${column}: ${rawUrl === '' && field === 'url' ? 'the URL is blank' : issue.message}`,
        );
      }
      continue;
    }
    const step = makeStep(draft, location, warnings);
    if (step === null) continue;
    steps.push(step);
    sources.push({
      location,
      path: urlPath(step.url),
      method,
      requestBody: step.payload ? { contentType: '', required: true } : null,
    });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    const more = problems.length > MAX_PROBLEMS ? `; and ${problems.length - MAX_PROBLEMS} more` : '';
    throw new ImportError(
      file,
      `${problems.length} value${problems.length === 1 ? '' : 's'} cannot be imported: ${shown.join('; ')}${more}`,
    );
  }
  return {
    steps,
    sources,
    warnings,
    info: {
      format,
      kind: format === 'csv' ? 'CSV' : 'Excel workbook',
      title: file,
      servers: [
        ...new Set(
          steps.map((s) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(s.url)?.[0] ?? '').filter(Boolean),
        ),
      ],
      requests: methods.length,
      methods: countMethods(methods),
    },
    needsValue: neededValues(steps, sources),
  };
}

const AUTH_COLUMNS: Record<string, string> = {
  type: 'authType',
  token: 'authToken',
  username: 'authUsername',
  password: 'authPassword',
  keyName: 'authKeyName',
  keyValue: 'authKeyValue',
  in: 'authKeyIn',
  tokenUrl: 'authTokenUrl',
  scope: 'authScope',
};

/** A cell as written (not trimmed): bodies keep their own white space. */
function rawCell(row: string[], columns: (string | undefined)[], column: string): string {
  const i = columns.indexOf(column);
  const value = i === -1 ? '' : (row[i] ?? '');
  return value.trim() === '' ? '' : value;
}

/**
 * "a=1&b=2" / "Name: value; Other: x" / one pair per line / a JSON object → [key, value] pairs. A header
 * value may itself hold ";" ("text/html; charset=utf-8"): the text is split only before "; Name:".
 */
function pairsCell(text: string, separator: '&' | ';', assign: '=' | ':'): [string, string][] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      // A value nested too deep for JSON.stringify is read as text below (docs/design.md §11 "Bad input").
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        !Array.isArray(parsed) &&
        !valueNestsTooDeep(parsed)
      ) {
        return Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
      }
    } catch {
      // Not JSON: read as pairs below.
    }
  }
  if (separator === '&') {
    return trimmed
      .split(/\r?\n/)
      .flatMap((line) => parseQueryString(line.trim()))
      .map((p) => [p.key, p.value]);
  }
  const pieces = trimmed.split(/\r?\n|;\s*(?=[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:)/);
  const pairs: [string, string][] = [];
  for (const piece of pieces) {
    const at = piece.indexOf(assign);
    if (piece.trim() === '') continue;
    if (at === -1) pairs.push([piece.trim(), '']);
    else pairs.push([piece.slice(0, at).trim(), piece.slice(at + 1).trim()]);
  }
  return pairs;
}
