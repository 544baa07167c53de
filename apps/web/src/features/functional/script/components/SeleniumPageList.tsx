import type { SeleniumPage } from '@aqa/converters';
import { Globe } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import { uiActionTarget, uiActionValue } from '@aqa/plan';

/**
 * What a Selenium script will do in the browser (docs/reference/02-running.md §3 "Selenium-style
 * scripts"), as the reader read it: each page in order, numbered, with the URL it opens (or that it acts
 * on the page the previous one left) and its steps, each with the action as written, its line, what it
 * acts on and the value it types, chooses or expects.
 */
export function SeleniumPageList({ pages }: { pages: readonly SeleniumPage[] }) {
  const t = useT();
  return (
    <Card className="space-y-4 p-4 sm:p-5" data-testid="selenium-pages">
      <div className="space-y-0.5">
        <h2 className="text-base font-semibold" data-testid="selenium-pages-title">
          {t('functional.selenium.pagesTitle', { count: pages.length })}
        </h2>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.selenium.pagesText')}</p>
      </div>
      <ol className="space-y-3">
        {pages.map((page, index) => (
          <li
            key={`${page.source.path}-${index}`}
            className="min-w-0 space-y-2 rounded-lg border border-border p-3"
            data-testid="selenium-page"
          >
            <div className="flex min-w-0 flex-wrap items-start gap-x-3 gap-y-1">
              <span className="num flex size-6 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-semibold">
                {index + 1}
              </span>
              <div className="min-w-0 flex-1 space-y-0.5">
                <h3 className="break-words text-sm font-semibold" data-testid="selenium-page-name">
                  {page.name}
                </h3>
                <p className="flex min-w-0 items-center gap-1.5 text-[12px] text-muted-foreground">
                  <Globe aria-hidden className="size-3.5 shrink-0" />
                  <span className="break-all font-mono" data-testid="selenium-page-url">
                    {page.url ?? t('functional.selenium.samePage')}
                  </span>
                </p>
              </div>
              <span className="text-xs text-muted-foreground">
                {t('functional.selenium.stepCount', { count: page.actions.length })}
              </span>
            </div>
            {page.actions.length === 0 ? (
              <p className="pl-9 text-[13px] text-muted-foreground">{t('functional.selenium.noActions')}</p>
            ) : (
              <ol className="divide-y divide-border rounded-md border border-border sm:ml-9">
                {page.actions.map((step, stepIndex) => {
                  const value = uiActionValue(step);
                  return (
                    <li
                      key={`${step.source.path}-${stepIndex}`}
                      className="grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-3 gap-y-0.5 px-3 py-1.5 text-[13px] sm:grid-cols-[4.5rem_12rem_minmax(0,1fr)]"
                      data-testid="selenium-step"
                    >
                      <span className="num font-mono text-xs text-muted-foreground">
                        {step.source.line !== undefined
                          ? t('functional.script.line', { line: step.source.line })
                          : '—'}
                      </span>
                      <code className="break-all font-mono text-[12px] font-semibold">
                        {step.source.action}
                      </code>
                      <span className="col-start-2 min-w-0 break-all font-mono text-[12px] sm:col-start-3">
                        {uiActionTarget(step)}
                        {value !== null && <span className="text-muted-foreground"> → {value}</span>}
                      </span>
                    </li>
                  );
                })}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}
