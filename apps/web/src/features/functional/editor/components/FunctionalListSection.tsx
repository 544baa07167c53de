import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';

/**
 * The ordered list of a list screen (docs/reference/02-running.md §2: the API screen's APIs, the UI
 * screen's UI tests): its title with the count, a line saying how it runs, the add actions, the list's
 * own problem ('At least one … must be configured') and, while empty, the empty state.
 */
export function FunctionalListSection({
  id,
  title,
  text,
  count,
  actions,
  error,
  empty,
  children,
  testIds,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  title: string;
  text: string;
  count: number;
  actions: ReactNode;
  error?: string;
  /** What the empty list says: its title and a line. */
  empty: { title: string; text: string };
  /** The list itself, drawn while it holds anything. */
  children: ReactNode;
  testIds: { section: string; count: string; error: string; empty: string };
}) {
  return (
    <section className="space-y-3" aria-labelledby={id} data-testid={testIds.section}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-0.5">
          <h2 id={id} className="flex items-center gap-2 text-base font-semibold">
            {title}
            <Badge variant="secondary" className="num" data-testid={testIds.count}>
              {count}
            </Badge>
          </h2>
          <p className="text-[13px] leading-5 text-muted-foreground">{text}</p>
        </div>
        <div className="flex flex-wrap gap-2">{actions}</div>
      </div>
      {error && (
        <p className="text-[13px] leading-5 text-destructive" data-testid={testIds.error}>
          {error}
        </p>
      )}

      {count === 0 ? (
        <Card
          className="flex flex-col items-center gap-2 border-dashed px-4 py-10 text-center"
          data-testid={testIds.empty}
        >
          <p className="text-sm font-medium">{empty.title}</p>
          <p className="max-w-md text-[13px] text-muted-foreground">{empty.text}</p>
        </Card>
      ) : (
        children
      )}
    </section>
  );
}
