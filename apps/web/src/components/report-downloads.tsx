import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { downloadText } from '@/lib/download';
import { cn } from '@/lib/utils';

/** A report as the server sends it: its text, the file name it gives, and the type to save it as. */
export interface ReportFile {
  text: string;
  filename: string;
  type: string;
}

export interface ReportFormatButton<F extends string> {
  format: F;
  label: string;
}

/**
 * A run's "Report" row: one button a format, each fetching the report and saving it under the server's
 * file name; one download at a time, and a failure is said below the row. The performance and the
 * functional result screens pass their own formats and report call.
 */
export function ReportDownloadButtons<F extends string>({
  formats,
  fetchReport,
  className,
}: {
  formats: readonly ReportFormatButton<F>[];
  fetchReport: (format: F) => Promise<ReportFile>;
  className?: string;
}) {
  const t = useT();
  const [busy, setBusy] = useState<F | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: F) {
    setBusy(format);
    setError(null);
    try {
      const report = await fetchReport(format);
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
        {formats.map(({ format, label }) => (
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
