import type { VitalRating } from '@aqa/plan';
import { Badge } from '@/components/ui/badge';
import { formatMs, formatNumber } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import type { PageFigure } from '../model/ui-steps';

const RATING_VARIANT = {
  good: 'success',
  'needs-improvement': 'warning',
  poor: 'destructive',
} as const satisfies Record<VitalRating, string>;

/**
 * One measured page figure (docs/design.md §9 "UI tests"): shown by its short name (named in full for a
 * screen reader and on hover), its value in ms (CLS unitless), "not reported" when the browser gave
 * none, and a rated one's rating in words beside the colour. `compact` is a page's line under "Pages";
 * the default a card of the step's "Page load".
 */
export function UiFigure({
  figure,
  testId,
  compact = false,
}: {
  figure: PageFigure;
  testId: string;
  compact?: boolean;
}) {
  const { t, locale } = useI18n();
  const value =
    figure.value === null
      ? t('functional.uiResult.notReported')
      : figure.name === 'cls'
        ? formatNumber(figure.value, locale, 3)
        : formatMs(figure.value, locale);
  return (
    <div
      className={cn('min-w-0 space-y-0.5', !compact && 'rounded-md border border-border px-2.5 py-2')}
      data-testid={testId}
      data-rating={figure.rating ?? 'none'}
    >
      <dt
        className={cn('truncate text-muted-foreground', compact ? 'text-[11px]' : 'text-xs')}
        title={t(`functional.uiResult.figureName.${figure.name}`)}
      >
        <span aria-hidden>{t(`functional.uiResult.figure.${figure.name}`)}</span>
        <span className="sr-only">{t(`functional.uiResult.figureName.${figure.name}`)}</span>
      </dt>
      <dd className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span
          className={cn(
            'num font-semibold',
            compact ? 'text-[13px]' : 'text-sm',
            figure.value === null && 'font-normal text-muted-foreground',
          )}
          data-testid="ui-figure-value"
        >
          {value}
        </span>
        {figure.rating && (
          <Badge
            variant={RATING_VARIANT[figure.rating]}
            className={cn(compact && 'px-1.5 py-0 text-[11px]')}
            data-testid="ui-figure-rating"
          >
            {t(`functional.uiResult.rating.${figure.rating}`)}
          </Badge>
        )}
      </dd>
    </div>
  );
}
