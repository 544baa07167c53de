import { StatusBadge } from '@/components/status-badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount, formatKbs, formatMs, formatPercent, formatRps, toolName } from '@/features/results';
import { useI18n } from '@/i18n';
import type { ReactNode } from 'react';
import { formatDateTime, formatMinutesSeconds, runTitle } from '../../model/run-format';
import type { PastRun } from '../../queries/history-api';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex min-w-0 items-baseline justify-between gap-4 py-2">
      <dt className="shrink-0 text-sm text-muted-foreground">{label}</dt>
      <dd className="num min-w-0 truncate text-right text-sm font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Test Information (docs/reference/02-running.md §2): test id, plan name, tool, status, start, end, duration, users. */
export function RunInformation({ run }: { run: PastRun }) {
  const { t, locale } = useI18n();
  return (
    <Card data-testid="run-information">
      <CardHeader className="pb-2">
        <CardTitle as="h3">{t('history.results.information')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-border">
          <Row label={t('history.results.testId')} testId="info-test-id">
            <code className="font-mono text-[13px]">{run.test_id}</code>
          </Row>
          <Row label={t('history.results.planName')} testId="info-plan-name">
            {runTitle(run) ?? '—'}
          </Row>
          <Row label={t('history.plan.tool')} testId="info-tool">
            {toolName(run.tool)}
          </Row>
          <Row label={t('history.results.status')} testId="info-status">
            <StatusBadge status={run.status} />
          </Row>
          <Row label={t('history.results.start')} testId="info-start">
            {formatDateTime(run.start_time, locale, 'medium') ?? '—'}
          </Row>
          <Row label={t('history.results.end')} testId="info-end">
            {formatDateTime(run.end_time, locale, 'medium') ?? '—'}
          </Row>
          <Row label={t('history.plan.duration')} testId="info-duration">
            {formatMinutesSeconds(run.duration)}
          </Row>
          <Row label={t('history.results.concurrentUsers')} testId="info-users">
            {formatCount(run.concurrent_users, locale)}
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * Performance Summary (docs/reference/02-running.md §2): total, successful, failed, error rate, average response, 95th,
 * requests/sec and bandwidth.
 */
export function PerformanceSummary({ run }: { run: PastRun }) {
  const { t, locale } = useI18n();
  const summary = run.results_summary;
  const figures: [string, string, string][] = summary
    ? [
        [t('history.results.total'), formatCount(summary.total_requests, locale), 'total'],
        [t('history.results.successful'), formatCount(summary.successful_requests, locale), 'successful'],
        [t('history.results.failed'), formatCount(summary.failed_requests, locale), 'failed'],
        [t('history.results.errorRate'), formatPercent(summary.error_rate, locale), 'error-rate'],
        [t('history.results.avgResponse'), formatMs(summary.average_response_time, locale), 'avg'],
        [t('history.results.p95'), formatMs(summary.percentile_95, locale), 'p95'],
        [t('history.results.rps'), formatRps(summary.requests_per_second, locale), 'rps'],
        [t('history.results.bandwidth'), formatKbs(summary.avg_bandwidth, locale), 'bandwidth'],
      ]
    : [];
  return (
    <Card data-testid="performance-summary">
      <CardHeader className="pb-2">
        <CardTitle as="h3">{t('history.results.summary')}</CardTitle>
      </CardHeader>
      <CardContent>
        {summary ? (
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
            {figures.map(([label, value, id]) => (
              <div key={id} className="min-w-0 rounded-lg bg-muted/40 px-3 py-2">
                <dt className="truncate text-xs text-muted-foreground">{label}</dt>
                <dd className="num text-base font-semibold tracking-tight" data-testid={`perf-summary-${id}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="summary-none">
            {t('history.results.noSummary')}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
