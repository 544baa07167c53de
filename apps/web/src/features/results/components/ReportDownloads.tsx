import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { cn } from '@/lib/utils';
import { isFinished } from '../model/finished';
import { downloadText } from '@/lib/download';
import { fetchReport, type ReportFormat } from '../queries/report-api';

const FORMATS: { format: ReportFormat; label: string }[] = [
  { format: 'html', label: 'HTML' },
  { format: 'json', label: 'JSON' },
  { format: 'csv', label: 'CSV' },
];

/**
 * Download a finished run as a self-contained HTML report, or its data as JSON or CSV
 * (GET /api/test-report/{id}), saved under the file name the server gives.
 */
export function ReportDownloads({ testId, className }: { testId: string; className?: string }) {
  const t = useT();
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: ReportFormat) {
    setBusy(format);
    setError(null);
    try {
      const report = await fetchReport(testId, format);
      downloadText(report.text, report.filename, report.type);
    } catch (failure) {
      setError(t('history.report.failed', { message: errorDetailMessage(failure, t) }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className={cn('space-y-2', className)} data-testid="report-downloads">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[13px] font-medium text-muted-foreground">{t('history.report.title')}</span>
        {FORMATS.map(({ format, label }) => (
          <Button
            key={format}
            variant="outline"
            size="sm"
            disabled={busy !== null}
            onClick={() => void download(format)}
            aria-label={t('history.report.download', { format: label })}
            data-testid={`report-${format}`}
          >
            {busy === format ? <Spinner /> : <Download />}
            {label}
          </Button>
        ))}
      </div>
      {error && (
        <p role="alert" className="text-[13px] text-destructive-text" data-testid="report-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The report downloads of the live result screen, once its run has finished (hidden before). */
export function FinishedRunReports({ testId, phase }: { testId: string | null | undefined; phase: string }) {
  if (!testId || !isFinished(phase)) return null;
  return <ReportDownloads testId={testId} />;
}
