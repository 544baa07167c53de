import type { FunctionalResult } from '@aqa/plan';
import { ArrowRight } from 'lucide-react';
import { ScreenButton } from '@/components/screen-button';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';

/**
 * A functional run's summary as its lists show it (docs/reference/02-running.md §2): "Total {count}",
 * "Successful {count}", on the dashboard "Failed {count}", and "Validation failures {count}" — spans for
 * the caller's line. A failure count above 0 is red.
 */
export function FunctionalSummaryCounts({
  summary,
  withFailed,
}: {
  summary: FunctionalResult['summary'];
  /** The dashboard's list counts the failed calls; Previous Results does not. */
  withFailed: boolean;
}) {
  const { t, locale } = useI18n();
  return (
    <>
      <span>
        {t('functional.board.summaryTotal', { count: formatCount(summary.total_requests, locale) })}
      </span>
      <span className="text-success-text">
        {t('functional.board.summarySuccessful', { count: formatCount(summary.successful_requests, locale) })}
      </span>
      {withFailed && (
        <span className={cn(summary.failed_requests > 0 && 'text-destructive-text')}>
          {t('functional.board.summaryFailed', { count: formatCount(summary.failed_requests, locale) })}
        </span>
      )}
      <span className={cn(summary.validation_failures > 0 && 'text-destructive-text')}>
        {t('functional.board.summaryValidationFailures', {
          count: formatCount(summary.validation_failures, locale),
        })}
      </span>
    </>
  );
}

/** View Result of a functional run: its result screen, told the run and its plan (for Back). */
export function ViewFunctionalResultButton({
  run,
  'data-testid': testId,
}: {
  run: Pick<FunctionalResult, 'test_id' | 'plan_id'>;
  'data-testid': string;
}) {
  const { t } = useI18n();
  return (
    <ScreenButton
      screen="functionalResult"
      params={{ testId: run.test_id }}
      state={{ testId: run.test_id, planId: run.plan_id ?? undefined }}
      variant="outline"
      size="sm"
      data-testid={testId}
    >
      {t('dashboard.viewResult')}
      <ArrowRight />
    </ScreenButton>
  );
}
