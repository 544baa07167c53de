import { useI18n } from '@/i18n';
import { formatCount } from '../model/format';

export interface LiveProgressProps {
  /** 0–100. */
  progress: number;
  elapsedSeconds: number;
  totalSeconds: number;
}

/** The running test's progress bar with percent, elapsed seconds and total (docs/reference/02-running.md §2, §4). */
export function LiveProgress({ progress, elapsedSeconds, totalSeconds }: LiveProgressProps) {
  const { t, locale } = useI18n();
  const percent = Math.round(progress);
  return (
    <div className="space-y-2" data-testid="live-progress">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span className="font-medium">
          {t('results.progress')}{' '}
          <span className="num text-primary" data-testid="progress-percent">
            {percent}%
          </span>
        </span>
        <span className="num text-muted-foreground" data-testid="progress-elapsed">
          {t('results.elapsedOfTotal', {
            elapsed: formatCount(elapsedSeconds, locale),
            total: formatCount(totalSeconds, locale),
          })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={t('results.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
        data-testid="progress-bar"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-700 ease-linear"
          style={{ width: `${progress}%` }}
        />
      </div>
    </div>
  );
}
