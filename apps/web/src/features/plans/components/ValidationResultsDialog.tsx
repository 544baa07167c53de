import { resultStatusLabel, type ApiValidationResult, type ValidationResponse } from '@aqa/plan';
import { CircleCheck, CircleX, ListChecks, TriangleAlert, X } from 'lucide-react';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { cn } from '@/lib/utils';

const VERDICT: Record<
  'PASS' | 'FAIL' | 'WARNING',
  { variant: NonNullable<BadgeProps['variant']>; icon: typeof CircleCheck }
> = {
  PASS: { variant: 'success', icon: CircleCheck },
  FAIL: { variant: 'destructive', icon: CircleX },
  WARNING: { variant: 'warning', icon: TriangleAlert },
};

/** docs/reference/01-authoring.md §4: success shows PASS, error FAIL, anything else WARNING. */
export function VerdictBadge({ status, testId }: { status: string; testId?: string }) {
  const label = resultStatusLabel(status);
  const { variant, icon: Icon } = VERDICT[label];
  return (
    <Badge variant={variant} data-verdict={label} data-testid={testId}>
      <Icon aria-hidden />
      {label}
    </Badge>
  );
}

function Total({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className="rounded-lg border border-border bg-card px-3 py-2.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn('num text-2xl font-semibold tracking-tight', tone)}>{value}</dd>
    </div>
  );
}

function ApiResult({ result, index }: { result: ApiValidationResult; index: number }) {
  const t = useT();
  const testId = `validation-result-${index}`;
  return (
    <li className="space-y-3 rounded-lg border border-border p-3" data-testid={testId}>
      <div className="flex flex-wrap items-start gap-2">
        <VerdictBadge status={result.status} testId={`${testId}-status`} />
        <span className="font-mono text-[13px] font-semibold">{result.method}</span>
        <span className="min-w-0 flex-1 break-all font-mono text-[13px] text-muted-foreground">
          {result.url}
        </span>
      </div>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 text-[13px]">
        <div className="space-y-0.5">
          <dt className="text-xs text-muted-foreground">{t('plans.resultsStatus')}</dt>
          <dd className="num font-semibold" data-testid={`${testId}-code`}>
            {result.response_status ?? t('plans.resultsNoAnswer')}
          </dd>
        </div>
        <div className="space-y-0.5">
          <dt className="text-xs text-muted-foreground">{t('plans.resultsTime')}</dt>
          <dd className="num font-semibold" data-testid={`${testId}-time`}>
            {result.response_time === null ? '—' : t('plans.ms', { value: Math.round(result.response_time) })}
          </dd>
        </div>
      </dl>
      {result.error && (
        <p
          className="rounded-md bg-destructive-soft px-2.5 py-1.5 text-[13px] leading-5 text-destructive-text"
          data-testid={`${testId}-error`}
        >
          {result.error}
        </p>
      )}
      {result.validations && result.validations.length > 0 && (
        <div className="space-y-1.5">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {t('plans.resultsChecks')}
          </h4>
          <ul className="divide-y divide-border rounded-md border border-border">
            {result.validations.map((check, checkIndex) => (
              <li
                key={check.id ?? `${check.name}-${checkIndex}`}
                className="space-y-1 px-2.5 py-2 text-[13px]"
                data-testid={`${testId}-check-${checkIndex}`}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <VerdictBadge status={check.status} />
                  <span className="font-medium">{check.name}</span>
                  <span className="text-muted-foreground">{t(`plans.vt.${check.type}`)}</span>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                  <dt className="text-muted-foreground">{t('plans.resultsExpected')}</dt>
                  <dd className="break-all font-mono text-[12px]">{check.expected_value}</dd>
                  <dt className="text-muted-foreground">{t('plans.resultsActual')}</dt>
                  <dd
                    className="break-all font-mono text-[12px]"
                    data-testid={`${testId}-check-${checkIndex}-actual`}
                  >
                    {check.actual_value ?? '—'}
                  </dd>
                </dl>
                {check.message && <p className="leading-5 text-muted-foreground">{check.message}</p>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/** Totals, then one row per API. */
function ValidationResultsBody({
  result,
  listClassName,
}: {
  result: ValidationResponse;
  listClassName?: string;
}) {
  const t = useT();
  return (
    <>
      <dl className="grid grid-cols-3 gap-2" data-testid="validation-totals">
        <Total label={t('plans.resultsTotal')} value={result.total_apis} />
        <Total label={t('plans.resultsSuccessful')} value={result.successful} tone="text-success-text" />
        <Total
          label={t('plans.resultsFailed')}
          value={result.failed}
          tone={result.failed > 0 ? 'text-destructive-text' : undefined}
        />
      </dl>
      <ol className={cn('space-y-2', listClassName)} data-testid="validation-results">
        {result.api_results.map((api, index) => (
          <ApiResult key={`${api.method}-${api.url}-${index}`} result={api} index={index} />
        ))}
      </ol>
    </>
  );
}

/** The script-upload screen's validation-results card (docs/reference/01-authoring.md §2): on the page, until dismissed. */
export function ValidationResultsCard({
  result,
  onClose,
}: {
  result: ValidationResponse;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Card role="region" data-testid="validation-card" aria-labelledby="validation-card-title">
      <CardHeader className="p-4 pb-3 sm:p-6 sm:pb-3">
        <div className="flex items-start justify-between gap-2">
          <div className="space-y-1">
            <CardTitle as="h2" id="validation-card-title" className="flex items-center gap-2">
              <ListChecks aria-hidden className="size-4 text-muted-foreground" />
              {t('plans.resultsTitle')}
            </CardTitle>
            <CardDescription>{t('plans.resultsText')}</CardDescription>
          </div>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={t('common.close')}
            onClick={onClose}
            data-testid="validation-close"
          >
            <X />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="space-y-3 px-4 pb-4 sm:px-6 sm:pb-6">
        {/* A long list scrolls inside the card, so the script below stays within reach. */}
        <ValidationResultsBody result={result} listClassName="max-h-[28rem] overflow-y-auto pr-1" />
      </CardContent>
    </Card>
  );
}

export function ValidationResultsDialog({
  result,
  onClose,
}: {
  result: ValidationResponse | null;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Dialog open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl" closeLabel={t('common.close')} data-testid="validation-dialog">
        <DialogHeader>
          <DialogTitle>{t('plans.resultsTitle')}</DialogTitle>
          <DialogDescription>{t('plans.resultsText')}</DialogDescription>
        </DialogHeader>
        {result && <ValidationResultsBody result={result} />}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" data-testid="validation-close">
              {t('common.close')}
            </Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
