import { formatMs, formatPercent, Sparkline } from '@/features/results';
import { useI18n } from '@/i18n';
import type { TrendPoint } from '../../queries/history-api';

/**
 * The plan's trend over its last completed runs (oldest first): p95 and error rate, each on its own
 * scale, with the latest measured value. Needs two runs to draw a line.
 */
export function TrendSparkline({ trend }: { trend: readonly TrendPoint[] }) {
  const { t, locale } = useI18n();
  if (trend.length < 2) return null;
  const p95 = trend.map((point) => point.percentile_95);
  const errors = trend.map((point) => point.error_rate);
  const last = trend[trend.length - 1];
  const rows = [
    {
      key: 'p95',
      title: t('history.trend.p95'),
      value: formatMs(last?.percentile_95, locale),
      values: p95,
      className: 'text-primary',
    },
    {
      key: 'errors',
      title: t('history.trend.errorRate'),
      value: formatPercent(last?.error_rate, locale),
      values: errors,
      className: 'text-destructive',
    },
  ];
  return (
    <div className="space-y-1.5" data-testid="plan-trend" data-runs={trend.length}>
      <p className="text-xs font-medium text-muted-foreground">
        {t('history.trend.title', { count: trend.length })}
      </p>
      <div className="grid grid-cols-2 gap-3">
        {rows.map((row) => (
          <div key={row.key} className="min-w-0">
            <div className="flex items-baseline justify-between gap-2 text-[11px] text-muted-foreground">
              <span>{row.title}</span>
              <span className="num font-medium text-foreground" data-testid={`trend-${row.key}-last`}>
                {row.value}
              </span>
            </div>
            <div
              role="img"
              aria-label={t('history.trend.label', {
                measure: row.title,
                count: trend.length,
                last: row.value,
              })}
            >
              <Sparkline values={row.values} className={row.className} />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
