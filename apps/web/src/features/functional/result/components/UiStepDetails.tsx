import type { UiStepDetails as Details } from '@aqa/plan';
import { type ReactNode, useMemo } from 'react';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { listsPages, pageFigures, placeShots } from '../model/ui-steps';
import { ScreenshotThumb } from './ScreenshotThumb';
import { UiActionRow } from './UiActionRow';
import { UiFigure } from './UiFigure';
import { UiPages } from './UiPages';

function SectionTitle({ children }: { children: ReactNode }) {
  return <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{children}</p>;
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
 * or recorded step's actions (docs/recorded-ui-tests.md "Results") and the pages they opened, the
 * page's console errors and failed requests (collapsed, with their counts), and its other screenshots,
 * which open large on click.
 */
export function UiStepDetails({ ui, testId, stepName }: { ui: Details; testId: string; stepName: string }) {
  const { t } = useI18n();
  const passedActions = ui.actions.filter((action) => action.passed).length;
  const shots = useMemo(() => placeShots(ui), [ui]);
  const pages = listsPages(ui) ? (ui.pages ?? []) : [];
  return (
    <div className="space-y-3" data-testid="ui-step">
      <div className="space-y-2">
        <SectionTitle>{t('functional.uiResult.pageTitle')}</SectionTitle>
        {pages.length > 0 ? (
          <p className="text-[13px] text-muted-foreground" data-testid="ui-page-load-note">
            {t('functional.uiResult.pageLoadEnded')}
          </p>
        ) : (
          ui.timings === null && (
            <p className="text-[13px] text-muted-foreground" data-testid="ui-no-page">
              {t('functional.uiResult.noPage')}
            </p>
          )
        )}
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-6">
          {pageFigures(ui).map((figure) => (
            <UiFigure key={figure.name} figure={figure} testId={`ui-figure-${figure.name}`} />
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
              <UiActionRow
                key={`${action.action}-${index}`}
                action={action}
                shot={shots.byAction[index] ?? null}
                testId={testId}
                stepName={stepName}
              />
            ))}
          </ol>
        </div>
      )}
      {pages.length > 0 && <UiPages pages={pages} testId={testId} stepName={stepName} />}
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
      {shots.rest.length > 0 && (
        <div className="space-y-1.5" data-testid="ui-screenshots">
          <SectionTitle>{t('functional.uiResult.screenshots')}</SectionTitle>
          <div className="flex flex-wrap gap-3">
            {shots.rest.map((shot) => (
              <ScreenshotThumb key={shot.id} testId={testId} stepName={stepName} shot={shot} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
