import { ArrowRight, FolderKanban } from 'lucide-react';
import { contract } from '@aqa/contract';
import { ScreenButton } from '@/components/screen-button';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EditPlanButton } from '@/components/edit-plan-button';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { formatDate } from '@/features/history';
import { toolName } from '@/features/results';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { routeKey, useRouteLoader, viewOf } from '@/lib/queries';
import { fetchSavedPlans, HOME_PLANS_LIMIT, type SavedPlansPage } from '../queries/saved-plans';

export type SavedPlansSource = (signal: AbortSignal) => Promise<SavedPlansPage>;

/**
 * The user's saved plans under Recent Activity (the sidebar's "Plans (saved)"): name, tool, APIs, created
 * date and Edit Plan, the newest few, with the performance dashboard for the rest.
 */
export function SavedPlans({ source = fetchSavedPlans }: { source?: SavedPlansSource }) {
  const { t, locale } = useI18n();
  const query = useRouteLoader(
    'saved-plans',
    routeKey(contract.plans.list, { query: { limit: HOME_PLANS_LIMIT } }),
    source,
  );
  const plans = viewOf(query);

  let body;
  if (plans.status === 'error') {
    body = (
      <ErrorBlock
        title={t('dashboard.loadFailed')}
        detail={errorDetailMessage(plans.error, t)}
        onRetry={() => void query.refetch()}
        data-testid="saved-plans-error"
      />
    );
  } else if (plans.status !== 'success') {
    body = <LoadingBlock text={t('dashboard.plansLoading')} />;
  } else if (plans.data.plans.length === 0) {
    body = (
      <EmptyBlock
        icon={FolderKanban}
        title={t('dashboard.plansEmpty')}
        text={t('dashboard.plansEmptyText')}
        data-testid="saved-plans-empty"
      />
    );
  } else {
    const { plans: items, total } = plans.data;
    body = (
      <>
        <ul className="divide-y divide-border" data-testid="saved-plans-list">
          {items.map((plan) => {
            const created = formatDate(plan.created_at, locale);
            const apis = plan.urls.length;
            return (
              <li
                key={plan.id}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3"
                data-testid="saved-plan"
              >
                <div className="min-w-48 flex-1 space-y-1">
                  <div className="flex min-w-0 items-center gap-2">
                    <p className="truncate text-sm font-medium">{plan.name}</p>
                    <Badge variant="outline" className="font-mono text-[11px]">
                      {toolName(plan.tool)}
                    </Badge>
                  </div>
                  <p className="num flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                    <span>{t('dashboard.planApis', { count: apis })}</span>
                    {plan.urls[0] && (
                      <span className="max-w-72 truncate font-mono" title={plan.urls[0].url}>
                        {plan.urls[0].method} {plan.urls[0].url}
                      </span>
                    )}
                    {created && <span>{t('dashboard.planCreated', { date: created })}</span>}
                  </p>
                </div>
                <EditPlanButton plan={plan} variant="ghost" />
              </li>
            );
          })}
        </ul>
        {total > items.length && (
          <p className="pt-3 text-[13px] text-muted-foreground" data-testid="saved-plans-more">
            {t('dashboard.plansMore', { count: total - items.length })}
          </p>
        )}
      </>
    );
  }

  return (
    <Card data-testid="saved-plans">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b border-border pb-4">
        <div className="space-y-1">
          <CardTitle as="h2">{t('dashboard.plansTitle')}</CardTitle>
          <CardDescription>{t('dashboard.plansSubtitle')}</CardDescription>
        </div>
        <ScreenButton
          screen="performanceDashboard"
          variant="outline"
          size="sm"
          data-testid="saved-plans-dashboard"
        >
          {t('dashboard.plansAll')}
          <ArrowRight />
        </ScreenButton>
      </CardHeader>
      <CardContent className="pt-2">{body}</CardContent>
    </Card>
  );
}
