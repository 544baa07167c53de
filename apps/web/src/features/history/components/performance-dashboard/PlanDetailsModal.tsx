import { MethodBadge, toolName } from '@/features/results';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useI18n } from '@/i18n';
import { formatDateTime } from '../../model/run-format';
import type { DashboardPlan } from '../../queries/history-api';

/** View Details (docs/reference/02-running.md §2): the plan's description, tool, created time and URLs. */
export function PlanDetailsModal({
  plan,
  open,
  onOpenChange,
}: {
  plan: DashboardPlan;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t, locale } = useI18n();
  const rows: [string, string, string][] = [
    [
      t('history.plan.description'),
      plan.description?.trim() || t('history.plan.noDescription'),
      'description',
    ],
    [t('history.plan.tool'), toolName(plan.tool), 'tool'],
    [t('history.plan.created'), formatDateTime(plan.created_at, locale) ?? '—', 'created'],
  ];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent className="max-w-2xl" closeLabel={t('common.close')} data-testid="plan-details-modal">
          <DialogHeader>
            <DialogTitle className="break-words">{plan.name}</DialogTitle>
            <DialogDescription>{t('history.plan.detailsText')}</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[minmax(0,8rem)_1fr] gap-x-4 gap-y-2 text-sm">
            {rows.map(([label, value, id]) => (
              <div key={id} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid={`plan-details-${id}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">{t('history.plan.urls', { count: plan.urls.length })}</h3>
            <ul className="max-h-72 space-y-1.5 overflow-y-auto" data-testid="plan-details-urls">
              {plan.urls.map((entry, index) => (
                <li
                  key={`${index}-${entry.url}`}
                  className="flex min-w-0 items-center gap-2 rounded-md border border-border px-2.5 py-1.5"
                >
                  <MethodBadge method={entry.method} />
                  <span className="min-w-0 flex-1 break-all font-mono text-[12px]">{entry.url}</span>
                </li>
              ))}
            </ul>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
