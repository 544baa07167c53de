import { UI_KEPT_PAGES_PER_STEP, type UiPageVisit } from '@aqa/plan';
import { ImageOff } from 'lucide-react';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import { pageFigures } from '../model/ui-steps';
import { ScreenshotThumb } from './ScreenshotThumb';
import { UiFigure } from './UiFigure';

function PageRow({
  page,
  number,
  testId,
  stepName,
}: {
  page: UiPageVisit;
  number: number;
  testId: string;
  stepName: string;
}) {
  const { t, locale } = useI18n();
  const label = t('functional.uiResult.pageNumber', { n: formatCount(number, locale) });
  return (
    <li className="flex min-w-0 flex-col gap-3 px-3 py-3 sm:flex-row" data-testid="ui-page">
      {page.screenshot === null ? (
        <div
          className="flex aspect-video w-40 shrink-0 flex-col items-center justify-center gap-1 rounded-md border border-dashed border-border text-center text-xs text-muted-foreground"
          data-testid="ui-page-no-shot"
        >
          <ImageOff aria-hidden className="size-4" />
          {t('functional.uiResult.noPageShot')}
        </div>
      ) : (
        <ScreenshotThumb
          testId={testId}
          stepName={stepName}
          shot={page.screenshot}
          label={label}
          caption={false}
        />
      )}
      <div className="min-w-0 flex-1 space-y-2">
        <p className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <span className="num text-xs font-semibold text-muted-foreground">{label}</span>
          <span className="min-w-0 break-all font-mono text-[12px]" data-testid="ui-page-url">
            {page.url}
          </span>
        </p>
        <dl className="grid grid-cols-2 gap-x-5 gap-y-2 sm:flex sm:flex-wrap">
          {pageFigures(page).map((figure) => (
            <UiFigure key={figure.name} figure={figure} testId={`ui-page-figure-${figure.name}`} compact />
          ))}
        </dl>
      </div>
    </li>
  );
}

/**
 * "Pages" of a UI step that ran actions (docs/recorded-ui-tests.md "Results"): each page its actions
 * opened, in order, with its address, its navigation timings and Web Vitals as measured ("not reported"
 * where the browser gave none) and its screenshot once loaded, which opens full size. A step keeps its
 * first UI_KEPT_PAGES_PER_STEP pages; a full list says so.
 */
export function UiPages({
  pages,
  testId,
  stepName,
}: {
  pages: readonly UiPageVisit[];
  testId: string;
  stepName: string;
}) {
  const { t, locale } = useI18n();
  return (
    <div className="space-y-1.5" data-testid="ui-pages" data-count={pages.length}>
      <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {t('functional.uiResult.pages', { count: formatCount(pages.length, locale) })}
      </p>
      <ol className="divide-y divide-border rounded-lg border border-border">
        {pages.map((page, index) => (
          <PageRow
            key={`${page.url}-${index}`}
            page={page}
            number={index + 1}
            testId={testId}
            stepName={stepName}
          />
        ))}
      </ol>
      {pages.length >= UI_KEPT_PAGES_PER_STEP && (
        <p className="text-xs text-muted-foreground" data-testid="ui-pages-kept">
          {t('functional.uiResult.pagesKept', { max: formatCount(UI_KEPT_PAGES_PER_STEP, locale) })}
        </p>
      )}
    </div>
  );
}
