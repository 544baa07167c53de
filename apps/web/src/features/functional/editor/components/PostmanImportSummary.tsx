import { ClipboardCheck } from 'lucide-react';
import { useT, type Translate } from '@/i18n';
import type { ImportedApis } from '../model/import-file';

export type PostmanTestCounts = NonNullable<ImportedApis['tests']>;

/** "42 tests: 40 rules, 2 scripts, 0 left out" (issue #27), in the screen's language, singular where one. */
export function postmanCountsLine(t: Translate, counts: PostmanTestCounts): string {
  const count = (key: 'tests' | 'rules' | 'scripts', n: number) =>
    n === 1 ? t(`functional.postman.count.${key}One`) : t(`functional.postman.count.${key}`, { count: n });
  return t('functional.postman.importedTests', {
    tests: count('tests', counts.tests),
    rules: count('rules', counts.rules),
    scripts: count('scripts', counts.scripts),
    left: counts.leftOut.length,
  });
}

/**
 * How an imported collection's tests came over (docs/adr/0029-postman-collections.md §1 "The import counts
 * tests as rules, scripts or left out … and says so on the screen"): kept on the screen under the APIs'
 * heading, not only in the notice that fades, with what each count means and each test left out.
 */
export function PostmanImportSummary({ file, counts }: { file: string; counts: PostmanTestCounts }) {
  const t = useT();
  return (
    <div
      className="space-y-1 rounded-lg border border-border bg-muted/40 px-3 py-2.5 text-[13px]"
      data-testid="postman-import-summary"
    >
      <p className="flex items-center gap-2 font-medium">
        <ClipboardCheck className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="break-words">{t('functional.postman.summaryTitle', { file })}</span>
      </p>
      <p className="num pl-6 text-sm font-semibold" data-testid="postman-import-counts">
        {postmanCountsLine(t, counts)}
      </p>
      <p className="pl-6 text-muted-foreground">{t('functional.postman.summaryText')}</p>
      {counts.leftOut.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-10 text-destructive-text" data-testid="postman-left-out">
          {counts.leftOut.map((l, index) => (
            <li key={`${l.request}-${l.line}-${index}`} className="break-words">
              {t('functional.postman.leftOutItem', { request: l.request, line: l.line, reason: l.reason })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
