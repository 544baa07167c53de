import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/i18n';

/** How many items of a long list are drawn at first, and how many more each press of the button adds. */
export const LIST_PAGE = 50;

/**
 * The first `LIST_PAGE` items of a long list, and a button that draws more (docs/performance.md "Script
 * editors and large pastes"): a pasted script of 3,000 requests read into 3,000 cards, each with its
 * rule editor, held the page for 40 s; drawing them a page at a time keeps the screen answering.
 */
export function useShownItems<T>(items: readonly T[]): { shown: readonly T[]; more: React.ReactNode } {
  const [limit, setLimit] = useState(LIST_PAGE);
  const shown = items.length > limit ? items.slice(0, limit) : items;
  return {
    shown,
    more:
      items.length > limit ? (
        <ShowMoreButton
          shown={limit}
          total={items.length}
          onMore={() => setLimit((current) => current + LIST_PAGE * 2)}
        />
      ) : null,
  };
}

function ShowMoreButton({ shown, total, onMore }: { shown: number; total: number; onMore: () => void }) {
  const { t, locale } = useI18n();
  const count = (n: number) => n.toLocaleString(locale);
  return (
    <Button variant="outline" size="sm" className="w-full sm:w-auto" onClick={onMore} data-testid="show-more">
      {t('list.showMore', {
        more: count(Math.min(LIST_PAGE * 2, total - shown)),
        shown: count(shown),
        total: count(total),
      })}
    </Button>
  );
}
