import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/i18n';
import { formatCount } from '@/features/results';

/** Previous / Next with "x–y of N" for a list the server pages. */
export function Pager({
  offset,
  limit,
  total,
  shown,
  onOffset,
  'data-testid': testId,
}: {
  offset: number;
  limit: number;
  total: number;
  /** Items on this page. */
  shown: number;
  onOffset: (offset: number) => void;
  'data-testid'?: string;
}) {
  const { t, locale } = useI18n();
  if (total === 0) return null;
  const from = shown === 0 ? 0 : offset + 1;
  const to = offset + shown;
  return (
    <nav
      aria-label={t('history.pager.label')}
      className="flex flex-wrap items-center justify-between gap-3"
      data-testid={testId ?? 'pager'}
    >
      <p className="num text-[13px] text-muted-foreground" data-testid="pager-range">
        {t('history.pager.range', {
          from: formatCount(from, locale),
          to: formatCount(to, locale),
          total: formatCount(total, locale),
        })}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={offset === 0}
          onClick={() => onOffset(Math.max(0, offset - limit))}
          data-testid="pager-previous"
        >
          <ChevronLeft />
          {t('history.pager.previous')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={to >= total}
          onClick={() => onOffset(offset + limit)}
          data-testid="pager-next"
        >
          {t('history.pager.next')}
          <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}
