import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { downloadText } from '@/lib/download';
import { fetchFunctionalReport, type FunctionalReportFormat } from '../../queries/result-api';

const FORMATS: { format: FunctionalReportFormat; label: string }[] = [
  { format: 'junit', label: 'JUnit' },
  { format: 'json', label: 'JSON' },
  { format: 'html', label: 'HTML' },
];

/**
 * A finished functional run's report (GET /api/functional/test-report/{id}): JUnit XML for CI, the
 * result as JSON, or a self-contained HTML page — the performance screen's report buttons, for this kind.
 */
export function FunctionalReportDownloads({ testId }: { testId: string }) {
  const t = useT();
  const [busy, setBusy] = useState<FunctionalReportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: FunctionalReportFormat) {
    setBusy(format);
    setError(null);
    try {
      const report = await fetchFunctionalReport(testId, format);
      downloadText(report.text, report.filename, report.type);
    } catch (failure) {
      setError(t('history.report.failed', { message: errorDetailMessage(failure, t) }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-2" data-testid="report-downloads">
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
