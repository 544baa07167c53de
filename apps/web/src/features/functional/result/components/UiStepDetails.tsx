import type { UiActionResult, UiStepDetails as Details, VitalRating } from '@aqa/plan';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatMs, formatNumber } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { pageFigures, type PageFigure } from '../model/ui-steps';
import { PassMark } from './PassMark';
import { ScreenshotThumb } from './ScreenshotThumb';

const RATING_VARIANT = {
  good: 'success',
  'needs-improvement': 'warning',
  poor: 'destructive',
} as const satisfies Record<VitalRating, string>;

function SectionTitle({ children }: { children: ReactNode }) {
  return <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{children}</p>;
}

/** One measured figure; a rated one says its rating in words beside the colour. */
function Figure({ figure }: { figure: PageFigure }) {
  const { t, locale } = useI18n();
  const value =
    figure.value === null
      ? t('functional.uiResult.notReported')
      : figure.name === 'cls'
        ? formatNumber(figure.value, locale, 3)
        : formatMs(figure.value, locale);
  return (
    <div
      className="min-w-0 space-y-0.5 rounded-md border border-border px-2.5 py-2"
      data-testid={`ui-figure-${figure.name}`}
      data-rating={figure.rating ?? 'none'}
    >
      <dt
        className="truncate text-xs text-muted-foreground"
        title={t(`functional.uiResult.figureName.${figure.name}`)}
      >
        <span aria-hidden>{t(`functional.uiResult.figure.${figure.name}`)}</span>
        <span className="sr-only">{t(`functional.uiResult.figureName.${figure.name}`)}</span>
      </dt>
      <dd className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span
          className={cn(
            'num text-sm font-semibold',
            figure.value === null && 'font-normal text-muted-foreground',
          )}
          data-testid="ui-figure-value"
        >
          {value}
        </span>
        {figure.rating && (
          <Badge variant={RATING_VARIANT[figure.rating]} data-testid="ui-figure-rating">
            {t(`functional.uiResult.rating.${figure.rating}`)}
          </Badge>
        )}
      </dd>
    </div>
  );
}

function ActionRow({ action }: { action: UiActionResult }) {
  const { t, locale } = useI18n();
  return (
    <li
      className="flex min-w-0 gap-2 px-3 py-2 text-[13px]"
      data-testid="ui-action"
      data-passed={String(action.passed)}
    >
      <PassMark passed={action.passed} />
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <code className="font-mono text-[12px] font-semibold">{action.action}</code>
          {action.line !== undefined && (
            <span className="num text-xs text-muted-foreground">
              {t('functional.uiResult.actionLine', { line: action.line })}
            </span>
          )}
          {action.locator !== null && (
            <code
              className="break-all font-mono text-[12px] text-muted-foreground"
              data-testid="ui-action-locator"
            >
              {action.locator}
            </code>
          )}
        </p>
        <p
          className={cn('break-words', !action.passed && 'text-destructive-text')}
          data-testid="ui-action-message"
        >
          {action.message}
        </p>
      </div>
      <span className="num shrink-0 text-xs text-muted-foreground">
        {formatMs(action.duration_ms, locale)}
      </span>
    </li>
  );
}

/** A list kept folded, with its count in the summary. */
function Collapsed({
  title,
  count,
  testId,
  children,
}: {
  title: string;
  count: number;
  testId: string;
  children: ReactNode;
}) {
  return (
    <details className="rounded-lg border border-border" data-testid={testId} data-count={count}>
      <summary
        className={cn(
          'cursor-pointer select-none px-3 py-2 text-sm font-medium',
          count > 0 ? 'text-foreground' : 'text-muted-foreground',
        )}
      >
        {title}
      </summary>
      <div className="border-t border-border">{children}</div>
    </details>
  );
}

/**
 * What the browser measured and kept for one UI step (docs/design.md §9 "UI tests"): the navigation
 * timings and Web Vitals, each rated good / needs improvement / poor where thresholds exist, a script
 * step's actions, the page's console errors and failed requests (collapsed, with their counts), and its
 * screenshots, which open large on click.
 */
export function UiStepDetails({ ui, testId, stepName }: { ui: Details; testId: string; stepName: string }) {
  const { t } = useI18n();
  const passedActions = ui.actions.filter((action) => action.passed).length;
  return (
    <div className="space-y-3" data-testid="ui-step">
      <div className="space-y-2">
        <SectionTitle>{t('functional.uiResult.pageTitle')}</SectionTitle>
        {ui.timings === null && (
          <p className="text-[13px] text-muted-foreground" data-testid="ui-no-page">
            {t('functional.uiResult.noPage')}
          </p>
        )}
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-6">
          {pageFigures(ui).map((figure) => (
            <Figure key={figure.name} figure={figure} />
          ))}
        </dl>
      </div>
      {ui.actions.length > 0 && (
        <div className="space-y-1.5" data-testid="ui-actions">
          <SectionTitle>
            {t('functional.uiResult.actions', { passed: passedActions, total: ui.actions.length })}
          </SectionTitle>
          <ol className="divide-y divide-border rounded-lg border border-border">
            {ui.actions.map((action, index) => (
              <ActionRow key={`${action.action}-${index}`} action={action} />
            ))}
          </ol>
        </div>
      )}
      <div className="grid gap-2 lg:grid-cols-2">
        <Collapsed
          title={t('functional.uiResult.consoleErrors', { count: ui.console_errors.length })}
          count={ui.console_errors.length}
          testId="ui-console-errors"
        >
          <ul className="divide-y divide-border">
            {ui.console_errors.map((message, index) => (
              <li key={index} className="whitespace-pre-wrap break-all px-3 py-1.5 font-mono text-[12px]">
                {message}
              </li>
            ))}
          </ul>
        </Collapsed>
        <Collapsed
          title={t('functional.uiResult.failedRequests', { count: ui.failed_requests.length })}
          count={ui.failed_requests.length}
          testId="ui-failed-requests"
        >
          <ul className="divide-y divide-border">
            {ui.failed_requests.map((request, index) => (
              <li key={index} className="space-y-0.5 px-3 py-1.5 text-[12px]">
                <p className="break-all font-mono">
                  <span className="font-semibold">{request.method}</span> {request.url}
                </p>
                <p className="text-destructive-text">{request.error}</p>
              </li>
            ))}
          </ul>
        </Collapsed>
      </div>
      {ui.screenshots.length > 0 && (
        <div className="space-y-1.5" data-testid="ui-screenshots">
          <SectionTitle>{t('functional.uiResult.screenshots')}</SectionTitle>
          <div className="flex flex-wrap gap-3">
            {ui.screenshots.map((shot) => (
              <ScreenshotThumb key={shot.id} testId={testId} stepName={stepName} shot={shot} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
