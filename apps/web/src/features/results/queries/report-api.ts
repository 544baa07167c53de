import { contract } from '@aqa/contract';
import type { ReportFile } from '@/components/report-downloads';
import { call, type CallOptions } from '@/lib/api';

/**
 * A run's report (GET /api/test-report/{id}): a self-contained HTML page, or the run's data as JSON or CSV.
 * The live result screen and the previous-results screen both offer it.
 */

export type ReportFormat = 'html' | 'json' | 'csv';

const REPORT_TYPES: Record<ReportFormat, string> = {
  html: 'text/html;charset=utf-8',
  json: 'application/json;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
};

/** The file name of a Content-Disposition header (filename*= first, then filename=). */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain filename.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/**
 * A report as text (`fetchText` makes the typed call with the options given), saved under the file name
 * of its Content-Disposition header, else `fallbackName`. The performance and the functional report calls
 * both fetch this way.
 */
export async function fetchReportFile(
  fetchText: (options: CallOptions) => Promise<string>,
  fallbackName: string,
  type: string,
): Promise<ReportFile> {
  let filename: string | null = null;
  const text = await fetchText({
    responseType: 'text',
    onResponse: (response) => {
      filename = dispositionFilename(response.headers.get('content-disposition'));
    },
  });
  return { text, filename: filename ?? fallbackName, type };
}

/** GET /api/test-report/{id}?format=…: the report as text, with the server's file name. */
export function fetchReport(id: string, format: ReportFormat): Promise<ReportFile> {
  return fetchReportFile(
    (options) => call(contract.history.report, { params: { id }, query: { format } }, options),
    `report_${id}.${format}`,
    REPORT_TYPES[format],
  );
}
