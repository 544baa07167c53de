import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/badge';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useT } from '@/i18n';
import { authSummary, maskSecretsInScript } from '../model/auth-display';
import { snapshotForm } from '../model/form-to-plan';
import { toolLabel, type PlanForm } from '../model/plan-form';
import { PlanExport } from './PlanExport';
import { authorizationToModel } from '@/features/call-editor';

/**
 * The plan details modal of docs/reference/01-authoring.md §2: name, tool, users, duration, number and list of APIs, and the
 * generated script when there is one. Bearer and OAuth2 tokens show their first 20 characters only.
 * Beyond the spec: the plan exports to a Postman collection, CSV or Excel from here.
 */
export function PlanDetailsDialog({
  open,
  onOpenChange,
  form,
  script,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  form: PlanForm;
  script: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <PlanDetailsContent form={form} script={script} />}
    </Dialog>
  );
}

function PlanDetailsContent({ form, script }: { form: PlanForm; script: string }) {
  const t = useT();
  const { body } = snapshotForm(form);
  const apis = form.entries.filter((entry) => entry.url.trim() !== '');
  const shownScript = script
    ? maskSecretsInScript(
        script,
        form.entries.map((entry) => authorizationToModel(entry.authorization)),
      )
    : '';
  const rows: [string, string, string][] = [
    [t('plans.detailsName'), form.name.trim() || t('plans.unnamed'), 'details-name'],
    [t('plans.detailsTool'), toolLabel(form.tool), 'details-tool'],
    [t('plans.detailsUsers'), String(body.concurrent_users), 'details-users'],
    [t('plans.detailsDuration'), t('plans.minutes', { count: String(body.duration) }), 'details-duration'],
    [t('plans.detailsApis'), String(apis.length), 'details-api-count'],
  ];
  return (
    <DialogContent className="max-w-2xl" closeLabel={t('common.close')} data-testid="details-dialog">
      <DialogHeader>
        <DialogTitle>{t('plans.detailsTitle')}</DialogTitle>
        <DialogDescription>{t('plans.detailsText')}</DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-lg border border-border p-4 text-sm">
        {rows.map(([label, value, testId]) => (
          <div key={testId} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="num min-w-0 break-words font-medium" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <section className="space-y-2">
        <h3 className="text-sm font-semibold">{t('plans.detailsApiList')}</h3>
        <ol className="space-y-2" data-testid="details-apis">
          {apis.map((entry, index) => {
            const auth = authSummary(authorizationToModel(entry.authorization));
            return (
              <li
                key={entry.id}
                className="space-y-1 rounded-lg border border-border px-3 py-2"
                data-testid={`details-api-${index}`}
              >
                <div className="flex min-w-0 items-baseline gap-2">
                  <span className="num text-xs font-semibold text-muted-foreground">{index + 1}.</span>
                  <span className="font-mono text-[13px] font-semibold">{entry.method}</span>
                  <span className="min-w-0 flex-1 break-all font-mono text-[13px]">{entry.url}</span>
                </div>
                {entry.name.trim() && (
                  <p
                    className="pl-4 text-[13px] text-muted-foreground"
                    data-testid={`details-api-${index}-name`}
                  >
                    {entry.name.trim()}
                  </p>
                )}
                {auth.type !== 'none' && (
                  <div className="flex flex-wrap items-center gap-2 pl-4 text-[13px]">
                    <Badge variant="outline">{t(`plans.auth.${auth.type}`)}</Badge>
                    {auth.detail && (
                      <code
                        className="break-all font-mono text-[12px] text-muted-foreground"
                        data-testid={`details-api-${index}-auth`}
                      >
                        {auth.detail}
                      </code>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      </section>
      {shownScript && (
        <details className="group rounded-lg border border-border" data-testid="details-script">
          <summary className="cursor-pointer select-none px-3 py-2 text-sm font-semibold">
            {t('plans.detailsScript')}
          </summary>
          <pre className="max-h-72 overflow-auto border-t border-border bg-muted/40 p-3 font-mono text-[12px] leading-5">
            {shownScript}
          </pre>
        </details>
      )}
      <PlanExport form={form} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" data-testid="details-close">
            {t('common.close')}
          </Button>
        </DialogClose>
      </DialogFooter>
    </DialogContent>
  );
}
