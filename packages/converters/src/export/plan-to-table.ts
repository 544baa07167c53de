import type { PerfPlan, UrlEntry } from '@aqa/plan';
import { csvField } from '../import/csv-to-plan';
import { TABLE_COLUMNS } from '../import/table-to-plan';
import { writeXlsx } from '../import/xlsx-to-plan';

/**
 * A plan's steps as the spreadsheet layout the CSV and Excel importers read (TABLE_COLUMNS): one row per
 * step, every column written, so a plan can be edited in a spreadsheet and imported again. Headers and
 * parameters are written as a JSON object (exact, whatever the names and values hold) unless a name
 * repeats or looks like a number (JSON objects cannot hold the one or keep the order of the other); then
 * as one pair per line. The importer trims every cell but the body, so white space around a single value
 * does not survive the trip. No think time is written as 0 (a blank cell means the default).
 */

type Pair = { name: string; value: string };

function pairsText(pairs: readonly Pair[], assign: ': ' | '='): string {
  const kept = pairs.filter((pair) => pair.name.trim() !== '');
  if (kept.length === 0) return '';
  const names = new Set(kept.map((pair) => pair.name));
  // JSON.parse puts integer-like keys ("22") first, which would reorder the pairs.
  const orderSafe = kept.every((pair) => !/^\d+$/.test(pair.name));
  if (names.size === kept.length && orderSafe) {
    return JSON.stringify(Object.fromEntries(kept.map((pair) => [pair.name, pair.value])));
  }
  return kept
    .map((pair) =>
      assign === '='
        ? `${encodeURIComponent(pair.name)}=${encodeURIComponent(pair.value)}`
        : `${pair.name}: ${pair.value}`,
    )
    .join('\n');
}

/** The value of each layout column for one step. */
function stepCells(step: UrlEntry): Record<string, string> {
  const auth = step.authorization;
  return {
    name: step.name ?? '',
    method: step.method,
    url: step.url,
    headers: pairsText(step.headers, ': '),
    params: pairsText(
      step.parameters.map((p) => ({ name: p.key, value: p.value })),
      '=',
    ),
    body: step.payload,
    // A blank cell means "the default think time" to the importer; a blank think time means no pause.
    thinkTime: step.thinkTime === '' ? '0' : step.thinkTime,
    timeout: String(step.timeout),
    transactionRate: String(step.transactionRate),
    authType: auth.type,
    authToken: auth.token,
    authUsername: auth.username,
    authPassword: auth.password,
    authKeyName: auth.keyName,
    authKeyValue: auth.keyValue,
    authKeyIn: auth.type === 'api_key' ? auth.in : '',
    authTokenUrl: auth.tokenUrl,
    authScope: auth.scope,
    extractType: step.extractType,
    extractName: step.extractName,
    extractValue: step.extractValue,
    assertionType: step.assertionType,
    assertionPath: step.assertionPath,
    assertionOperator: step.assertionOperator,
    assertionValue: step.assertionValue,
  };
}

/** Rows: the column names first, then one row per step. */
export function planToTableRows(plan: Pick<PerfPlan, 'urls'>): string[][] {
  const columns = TABLE_COLUMNS.map((column) => column.column);
  return [
    columns,
    ...plan.urls.map((step) => {
      const cells = stepCells(step);
      return columns.map((column) => cells[column] ?? '');
    }),
  ];
}

/** The plan's steps as CSV (RFC 4180 quoting, CRLF line ends, as spreadsheets write it). */
export function planToCsv(plan: Pick<PerfPlan, 'urls'>): string {
  return `${planToTableRows(plan)
    .map((row) => row.map(csvField).join(','))
    .join('\r\n')}\r\n`;
}

/** The plan's steps as an Excel workbook (.xlsx). */
export function planToXlsx(plan: Pick<PerfPlan, 'urls'>): Uint8Array {
  return writeXlsx(planToTableRows(plan));
}
