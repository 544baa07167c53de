import { api } from '@/lib/api';

/**
 * A run's report (GET /api/test-report/{id}): a self-contained HTML page, or the run's data as JSON or CSV.
 * The live result screen and the previous-results screen both offer it.
 */

export type ReportFormat = 'html' | 'json' | 'csv';

export interface ReportFile {
  text: string;
  filename: string;
  type: string;
}

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

/** GET /api/test-report/{id}?format=…: the report as text, with the server's file name. */
export async function fetchReport(id: string, format: ReportFormat): Promise<ReportFile> {
  let filename: string | null = null;
  const text = await api.get<string>(
    `/test-report/${encodeURIComponent(id)}?${new URLSearchParams({ format }).toString()}`,
    {
      responseType: 'text',
      onResponse: (response) => {
        filename = dispositionFilename(response.headers.get('content-disposition'));
      },
    },
  );
  return { text, filename: filename ?? `report_${id}.${format}`, type: REPORT_TYPES[format] };
}
