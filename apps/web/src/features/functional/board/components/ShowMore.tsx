import { ChevronDown } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';

/** How many items of a long list are drawn at first, and how many more each "Show more" adds. */
const LIST_STEP = 20;

/**
 * The first items of a long list, and a button that shows the next ones (the counters count them all);
 * the item at `keep` (0-based, -1 for none) is always among those shown.
 */
export function useShownItems<T>(items: readonly T[], keep = -1) {
  const [limit, setLimit] = useState(LIST_STEP);
  const count = Math.max(limit, keep + 1);
  return {
    shown: items.slice(0, count),
    hidden: Math.max(0, items.length - count),
    more: () => setLimit((n) => n + LIST_STEP),
  };
}

function ShowMoreButton({
  hidden,
  onClick,
  'data-testid': testId,
}: {
  hidden: number;
  onClick: () => void;
  'data-testid'?: string;
}) {
  const { t, locale } = useI18n();
  if (hidden === 0) return null;
  return (
    <div className="border-t border-border px-4 py-3 text-center">
      <Button variant="ghost" size="sm" onClick={onClick} data-testid={testId}>
        <ChevronDown />
        {t('functional.board.showMore', {
          count: formatCount(Math.min(hidden, LIST_STEP), locale),
          total: formatCount(hidden, locale),
        })}
      </Button>
    </div>
  );
}

/**
 * A list of the board drawn a step at a time (useShownItems), with its "Show more" button below, or
 * `empty` when the list has no items.
 */
export function ShownList<T>({
  items,
  itemKey,
  children,
  empty,
  'data-testid': testId,
  moreTestId,
}: {
  items: ReturnType<typeof useShownItems<T>>;
  itemKey: (item: T) => string;
  children: (item: T) => ReactNode;
  empty: ReactNode;
  'data-testid': string;
  moreTestId: string;
}) {
  // Nothing shown means nothing at all: the first step always shows items when there are some.
  if (items.shown.length === 0) return empty;
  return (
    <>
      <ul className="divide-y divide-border" data-testid={testId}>
        {items.shown.map((item) => (
          <li key={itemKey(item)}>{children(item)}</li>
        ))}
      </ul>
      <ShowMoreButton hidden={items.hidden} onClick={items.more} data-testid={moreTestId} />
    </>
  );
}
