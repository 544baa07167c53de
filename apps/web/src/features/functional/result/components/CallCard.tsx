import { type CallResult, EVIDENCE_PER_API, EVIDENCE_PER_RUN, type ValidationDetail } from '@aqa/plan';
import { Badge } from '@/components/ui/badge';
import { formatMs } from '@/features/results';
import { useI18n } from '@/i18n';
import { usePhrase } from '@/i18n/phrases';
import { passedCount } from '../model/call-pages';
import { MethodUrl, StatusCodeFact } from './CallFacts';
import { PassMark } from './PassMark';
import { FailureEvidence } from './FailureEvidence';
import { TimingBar } from './TimingBar';
import { UiStepDetails } from './UiStepDetails';

/** `answered`: the call had a response, so a rule with no actual value found nothing in it. */
function RuleRow({ detail, answered }: { detail: ValidationDetail; answered: boolean }) {
  const { t } = useI18n();
  const say = usePhrase();
  // No actual value: no response came back, or a rule found nothing in the one that did; a skipped or
  // broken script has none to show (its message says why).
  const actualMissing = () =>
    detail.type === 'script'
      ? '—'
      : t(answered ? 'functional.result.actualNotFound' : 'functional.result.noActual');
  return (
    <li
      className="space-y-1.5 px-3 py-2.5"
      data-testid="validation-detail"
      data-passed={detail.passed ? 'true' : 'false'}
    >
      <div className="flex min-w-0 items-start gap-2">
        <PassMark passed={detail.passed} />
        {/* A rule's or pm.test's own name: what Newman lists the assertion by (docs/adr/0029-postman-collections.md §1). */}
        {detail.name && (
          <span className="min-w-0 break-words text-sm font-semibold" data-testid="detail-name">
            {detail.name}
          </span>
        )}
        <Badge variant="outline" className="font-mono text-[11px]" data-testid="detail-type">
          {detail.type}
        </Badge>
        <p className="min-w-0 flex-1 break-words text-sm" data-testid="detail-message">
          {say(detail.message, detail.message_phrase)}
        </p>
      </div>
      <dl className="grid gap-x-4 gap-y-1 pl-7 text-[13px] sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="inline text-muted-foreground">{t('functional.result.expected')}: </dt>
          <dd className="inline break-all font-mono text-[12px]" data-testid="detail-expected">
            {detail.expected}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="inline text-muted-foreground">{t('functional.result.actual')}: </dt>
          <dd className="inline break-all font-mono text-[12px]" data-testid="detail-actual">
            {detail.actual ?? actualMissing()}
          </dd>
        </div>
      </dl>
      {detail.violations && detail.violations.length > 0 && (
        <div className="pl-7" data-testid="schema-violations">
          <p className="text-xs font-semibold text-muted-foreground">
            {t('functional.result.violations', { count: String(detail.violations.length) })}
          </p>
          <ul className="mt-1 space-y-0.5 text-[13px]">
            {detail.violations.map((violation, index) => (
              <li key={`${violation.path}-${index}`} className="break-words">
                <code className="rounded bg-muted px-1 font-mono text-[12px]">{violation.path || '/'}</code>{' '}
                {violation.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/**
 * One judged call of "Validation Results" (docs/reference/02-running.md §2): name (or 'API N'), method,
 * url, status code (green 200–299, else red), response time, Success/Failed, passed/total and each rule
 * with its pass mark, type, expected, actual and message; beyond it what its captures read, the timing
 * phases and, for a failed call, the evidence (docs/design.md §9); a UI step instead its page figures,
 * actions, console errors, failed requests and screenshots (§9 "UI tests").
 */
export function CallCard({ call, number, testId }: { call: CallResult; number: number; testId: string }) {
  const { t, locale } = useI18n();
  const say = usePhrase();
  const { passed, total } = passedCount(call);
  const name = call.api_name.trim() || t('functional.result.apiFallback', { n: String(number) });
  return (
    <article
      className="min-w-0 space-y-3 rounded-lg border border-border bg-card p-3 sm:p-4"
      data-testid="call-result"
      data-success={call.success ? 'true' : 'false'}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <h4 className="break-words text-sm font-semibold" data-testid="call-name">
            {name}
          </h4>
          <MethodUrl method={call.method} url={call.url} />
        </div>
        <Badge variant={call.success ? 'success' : 'destructive'} data-testid="call-outcome">
          {t(call.success ? 'functional.result.success' : 'functional.result.failed')}
        </Badge>
      </header>
      <p className="num flex flex-wrap items-center gap-x-4 gap-y-1 text-[13px]">
        <StatusCodeFact code={call.status_code} data-testid="call-status-code" />
        <span>
          <span className="text-muted-foreground">{t('functional.result.responseTime')} </span>
          <span className="font-medium" data-testid="call-response-time">
            {formatMs(call.response_time, locale)}
          </span>
        </span>
        <span data-testid="call-passed">
          {t('functional.result.passedOf', { passed: String(passed), total: String(total) })}
        </span>
      </p>
      {call.error && (
        <p className="text-[13px] text-destructive-text" data-testid="call-error">
          {say(call.error, call.error_phrase)}
        </p>
      )}
      {total > 0 && (
        <ul
          className="divide-y divide-border rounded-lg border border-border"
          data-testid="validation-details"
        >
          {call.validation_details.map((detail, index) => (
            <RuleRow key={`${detail.type}-${index}`} detail={detail} answered={call.status_code !== null} />
          ))}
        </ul>
      )}
      {call.captures && call.captures.length > 0 && (
        <div className="space-y-1" data-testid="call-captures">
          <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {t('functional.result.captures')}
          </p>
          <ul className="space-y-0.5 text-[13px]">
            {call.captures.map((capture, index) => (
              <li key={`${capture.name}-${index}`} className="break-all">
                <code className="rounded bg-muted px-1 font-mono text-[12px]">{`{{${capture.name}}}`}</code>{' '}
                {capture.value === null ? (
                  <span className="text-destructive-text">{t('functional.result.captureMissing')}</span>
                ) : (
                  <span className="font-mono text-[12px]">{capture.value}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {call.timings && <TimingBar timings={call.timings} />}
      {call.ui && <UiStepDetails ui={call.ui} testId={testId} stepName={name} />}
      {call.evidence && <FailureEvidence evidence={call.evidence} />}
      {/* A failed API call past the evidence limits (docs/adr/0024-memory-bounds.md) says why none is shown. */}
      {!call.success && !call.evidence && !call.ui && (
        <p className="text-xs text-muted-foreground" data-testid="evidence-not-kept">
          {t('functional.result.evidence.notKept', {
            perApi: String(EVIDENCE_PER_API),
            perRun: String(EVIDENCE_PER_RUN),
          })}
        </p>
      )}
    </article>
  );
}
