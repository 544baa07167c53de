import { ReportDownloadButtons, type ReportFormatButton } from '@/components/report-downloads';
import { isFinished } from '../model/finished';
import { fetchReport, type ReportFormat } from '../queries/report-api';

const FORMATS: readonly ReportFormatButton<ReportFormat>[] = [
  { format: 'html', label: 'HTML' },
  { format: 'json', label: 'JSON' },
  { format: 'csv', label: 'CSV' },
];

/**
 * Download a finished run as a self-contained HTML report, or its data as JSON or CSV
 * (GET /api/test-report/{id}), saved under the file name the server gives.
 */
export function ReportDownloads({ testId, className }: { testId: string; className?: string }) {
  return (
    <ReportDownloadButtons
      formats={FORMATS}
      fetchReport={(format) => fetchReport(testId, format)}
      className={className}
    />
  );
}

/** The report downloads of the live result screen, once its run has finished (hidden before). */
export function FinishedRunReports({ testId, phase }: { testId: string | null | undefined; phase: string }) {
  if (!testId || !isFinished(phase)) return null;
  return <ReportDownloads testId={testId} />;
}
