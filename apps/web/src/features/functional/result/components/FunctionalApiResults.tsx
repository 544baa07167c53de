import type { FunctionalApiResult } from '@aqa/plan';
import { Check, Minus, X } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { formatMs } from '@/features/results';
import { useI18n } from '@/i18n';
import { MethodUrl, StatusCodeFact } from './CallFacts';

/**
 * "API Results" (docs/reference/02-running.md §2): per API its name, status (success or another word),
 * method, URL, response time, status code and its rules as Passed/Failed; an API that was not run says
 * "Not run", in grey, and so do its rules.
 */
export function FunctionalApiResults({ apis }: { apis: readonly FunctionalApiResult[] }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="functional-api-results-title" className="space-y-3" data-testid="api-results">
      <h2 id="functional-api-results-title" className="text-lg font-semibold tracking-tight">
        {t('functional.result.apiResults')}
      </h2>
      <ul className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        {apis.map((api, index) => {
          // An API the run never reached (it stopped before, or an earlier call ended it): nothing was
          // judged, so neither its status nor its rules are failures (issue 24).
          const notRun = api.status === 'not_run';
          return (
            <li
              key={`${index}-${api.name}`}
              className="min-w-0 space-y-2 rounded-lg border border-border bg-card p-3 sm:p-4"
              data-testid="api-result-row"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="min-w-0 break-words text-sm font-semibold">
                  {api.name.trim() || t('functional.result.apiFallback', { n: String(index + 1) })}
                </h3>
                <Badge
                  variant={api.status === 'success' ? 'success' : notRun ? 'secondary' : 'destructive'}
                  data-testid="api-status"
                  data-status={api.status}
                >
                  {api.status === 'success'
                    ? t('functional.result.success')
                    : api.status === 'failed'
                      ? t('functional.result.failed')
                      : notRun
                        ? t('functional.result.notRun')
                        : api.status}
                </Badge>
              </div>
              <MethodUrl method={api.method} url={api.url} />
              {notRun ? (
                <p className="text-[13px] text-muted-foreground" data-testid="api-not-run">
                  {t('functional.result.notRunText')}
                </p>
              ) : (
                <p className="num flex flex-wrap gap-x-4 text-[13px]">
                  <span>
                    <span className="text-muted-foreground">{t('functional.result.responseTime')} </span>
                    {formatMs(api.response_time, locale)}
                  </span>
                  <StatusCodeFact code={api.status_code} />
                </p>
              )}
              {api.validation_results.length > 0 && (
                <ul className="flex flex-wrap gap-1.5">
                  {api.validation_results.map((rule, ruleIndex) => (
                    <li key={`${rule.name}-${ruleIndex}`}>
                      {notRun ? (
                        <Badge variant="secondary" className="font-normal" data-testid="api-rule">
                          <Minus aria-hidden />
                          {rule.name}: {t('functional.result.ruleNotRun')}
                        </Badge>
                      ) : (
                        <Badge
                          variant={rule.passed ? 'success' : 'destructive'}
                          className="font-normal"
                          data-testid="api-rule"
                        >
                          {rule.passed ? <Check aria-hidden /> : <X aria-hidden />}
                          {rule.name}:{' '}
                          {t(rule.passed ? 'functional.result.passed' : 'functional.result.failed')}
                        </Badge>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
