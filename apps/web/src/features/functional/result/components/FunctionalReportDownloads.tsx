import { ReportDownloadButtons, type ReportFormatButton } from '@/components/report-downloads';
import { fetchFunctionalReport, type FunctionalReportFormat } from '../../queries/result-api';

const FORMATS: readonly ReportFormatButton<FunctionalReportFormat>[] = [
  { format: 'junit', label: 'JUnit' },
  { format: 'json', label: 'JSON' },
  { format: 'html', label: 'HTML' },
];

/**
 * A finished functional run's report (GET /api/functional/test-report/{id}): JUnit XML for CI, the
 * result as JSON, or a self-contained HTML page — the performance screen's report buttons, for this kind.
 */
export function FunctionalReportDownloads({ testId }: { testId: string }) {
  return (
    <ReportDownloadButtons
      formats={FORMATS}
      fetchReport={(format) => fetchFunctionalReport(testId, format)}
    />
  );
}
