import { Activity, ArrowRight, CircleExclamationPoint } from 'lucide-react';
import { use } from 'react';
import { ScreenButton } from '@/components/screen-button';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/i18n';
import { useRouteLoader, viewOf } from '@/lib/queries';
import {
  newestFirst,
  recentResultsKey,
  RecentResultsContext,
  type RecentResultsSource,
} from '../queries/recent-results';

function formatTime(value: string | undefined, locale: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** Never called: the query is not enabled without a source. */
const noResults: RecentResultsSource = () => Promise.resolve([]);

/**
 * Recent Activity of the home dashboard (docs/reference/02-running.md §2). Its data comes from the results feature through
 * `RecentResultsContext` (or the `source` given); without one nothing is fetched and the empty state is
 * shown — no placeholder data.
 */
export function RecentActivity({ source: given }: { source?: RecentResultsSource }) {
  const registered = use(RecentResultsContext);
  const source = given ?? registered;
  const { t, locale } = useI18n();
  const query = useRouteLoader('recent-results', recentResultsKey(), source ?? noResults, {
    enabled: source !== undefined,
  });
  const results = viewOf(query);

  let body;
  if (results.status === 'loading') {
    body = (
      <div
        role="status"
        className="flex items-center justify-center gap-2 py-12 text-sm text-muted-foreground"
      >
        <Spinner />
        {t('dashboard.loading')}
      </div>
    );
  } else if (results.status === 'error') {
    body = (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 rounded-lg border border-destructive/25 bg-destructive-soft px-4 py-8 text-center text-sm text-destructive-text"
        data-testid="recent-error"
      >
        <CircleExclamationPoint aria-hidden className="size-5" />
        <p className="font-medium">{t('dashboard.loadFailed')}</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else {
    const items = results.status === 'success' ? newestFirst(results.data) : [];
    body =
      items.length === 0 ? (
        <div className="flex flex-col items-center px-4 py-12 text-center" data-testid="recent-empty">
          <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <Activity aria-hidden className="size-5" />
          </span>
          <p className="text-sm font-medium">{t('dashboard.emptyTitle')}</p>
          <p className="mt-1 text-sm text-muted-foreground">{t('dashboard.emptyText')}</p>
        </div>
      ) : (
        <ul className="divide-y divide-border" data-testid="recent-list">
          {items.map((item) => {
            const created = formatTime(item.createdAt, locale);
            return (
              <li key={item.testId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                <div className="min-w-48 flex-1">
                  <p className="truncate text-sm font-medium">
                    {item.name?.trim() || t('dashboard.unnamedTest')}
                  </p>
                  {created && (
                    <p className="num text-xs text-muted-foreground">
                      <time dateTime={item.createdAt}>{created}</time>
                    </p>
                  )}
                </div>
                <Badge variant="outline" className="text-[11px]" data-testid="recent-kind">
                  {t(
                    item.kind === 'functional'
                      ? 'functional.recent.functional'
                      : 'functional.recent.performance',
                  )}
                </Badge>
                <StatusBadge status={item.status} />
                <ScreenButton
                  screen={item.kind === 'functional' ? 'functionalResult' : 'testResult'}
                  params={{ testId: item.testId }}
                  state={{ testId: item.testId, planId: item.planId }}
                  variant="ghost"
                  size="sm"
                  data-testid="recent-view-result"
                >
                  {t('dashboard.viewResult')}
                  <ArrowRight />
                </ScreenButton>
              </li>
            );
          })}
        </ul>
      );
  }

  return (
    <Card data-testid="recent-activity">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b border-border pb-4">
        <div className="space-y-1">
          <CardTitle as="h2">{t('dashboard.recentTitle')}</CardTitle>
          <CardDescription>{t('dashboard.recentSubtitle')}</CardDescription>
        </div>
        <ScreenButton screen="previousResults" variant="outline" size="sm" data-testid="view-all-results">
          {t('dashboard.viewAll')}
        </ScreenButton>
      </CardHeader>
      <CardContent className="pt-2">{body}</CardContent>
    </Card>
  );
}
