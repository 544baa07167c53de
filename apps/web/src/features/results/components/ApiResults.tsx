import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n, useT, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import { errorRateBadgeVariant, formatCount, formatMs, formatPercent, isNumber } from '../model/format';
import type { ApiRow as ApiResult } from '../model/views';
import { apiDisplayName } from './charts/api-names';
import { apiRowLabel, apiUrlLine, ownApiName, sharedOrigin, type NamedApi } from '../model/chart-labels';

const METHOD_TONES: Record<string, string> = {
  GET: 'bg-info-soft text-info-text',
  POST: 'bg-success-soft text-success-text',
  PUT: 'bg-warning-soft text-warning-text',
  PATCH: 'bg-warning-soft text-warning-text',
  DELETE: 'bg-destructive-soft text-destructive-text',
};

export function MethodBadge({ method }: { method: string | null | undefined }) {
  const value = (method ?? '').toUpperCase() || 'GET';
  return (
    <Badge
      variant="secondary"
      className={cn('font-mono text-[11px] tracking-wide', METHOD_TONES[value])}
      data-testid="method-badge"
    >
      {value}
    </Badge>
  );
}

/** The error-rate badge: green under 5 %, yellow under 10 %, red otherwise (docs/reference/02-running.md §2, §9). */
export function ErrorRateBadge({ errorRate }: { errorRate: number | null | undefined }) {
  const { locale } = useI18n();
  const variant = errorRateBadgeVariant(errorRate);
  return (
    <Badge variant={variant} className="num" data-testid="error-rate-badge" data-level={variant}>
      {formatPercent(errorRate, locale)}
    </Badge>
  );
}

/** "Host: http://127.0.0.1:9", once above a list of APIs that all call it (issue 24). */
export function ApiHostLine({ origin, className }: { origin: string | null; className?: string }) {
  const t = useT();
  if (!origin) return null;
  return (
    <p
      className={cn('truncate font-mono text-xs text-muted-foreground', className)}
      title={origin}
      data-testid="api-host"
    >
      {t('results.apiHost', { host: origin })}
    </p>
  );
}

/** The line under an API row's label (apiUrlLine): its whole URL, or its path when the host is said above. */
export function ApiUrlLine({
  api,
  origin,
  className,
}: {
  api: NamedApi;
  origin: string | null;
  className?: string;
}) {
  const line = apiUrlLine(api, origin);
  if (!line) return null;
  return (
    <p
      className={cn('truncate font-mono text-xs text-muted-foreground', className)}
      title={api.url ?? undefined}
    >
      {line}
    </p>
  );
}

/** An API row's label (apiRowLabel), else "API {n}". */
function rowLabel(api: ApiResult, index: number, t: Translate): string {
  return apiRowLabel(api) ?? apiDisplayName(api, index, t);
}

function successfulOf(api: ApiResult): number | null {
  if (isNumber(api.successful_requests)) return api.successful_requests;
  return null;
}

export interface ApiResultsTableProps {
  apiResults: readonly ApiResult[];
  title?: string;
  description?: string;
  'data-testid'?: string;
}

/**
 * API Results Details (docs/reference/02-running.md §2): API Label, Method, Total Requests, Successful, Failed, Avg Response
 * Time, 95th Percentile, Error Rate — one row per API; scrolls sideways on narrow screens.
 */
export function ApiResultsTable({
  apiResults,
  title,
  description,
  'data-testid': testId,
}: ApiResultsTableProps) {
  const { t, locale } = useI18n();
  const origin = sharedOrigin(apiResults);
  const figure = (
    key: string,
    header: MessageKey,
    value: (api: ApiResult) => ReactNode,
    cellAttributes?: DataColumn<ApiResult>['cellAttributes'],
  ): DataColumn<ApiResult> => ({
    key,
    header: t(header),
    numeric: true,
    cell: value,
    ...(cellAttributes ? { cellAttributes } : {}),
  });
  const columns: DataColumn<ApiResult>[] = [
    {
      key: 'label',
      header: t('results.apiTable.label'),
      cellClassName: 'max-w-72 truncate font-medium',
      cellAttributes: (api, index) => ({ title: api.url ?? rowLabel(api, index, t) }),
      cell: (api, index) => rowLabel(api, index, t),
    },
    {
      key: 'method',
      header: t('results.apiTable.method'),
      cell: (api) => <MethodBadge method={api.method} />,
    },
    figure(
      'total',
      'results.apiTable.total',
      (api) => formatCount(api.total_requests, locale),
      () => ({ 'data-testid': 'api-table-total' }),
    ),
    figure('successful', 'results.apiTable.successful', (api) => formatCount(successfulOf(api), locale)),
    figure('failed', 'results.apiTable.failed', (api) => formatCount(api.failed_requests, locale)),
    figure('avg', 'results.apiTable.avg', (api) => formatMs(api.average_response_time, locale)),
    figure('p95', 'results.apiTable.p95', (api) => formatMs(api.percentile_95, locale)),
    figure('errorRate', 'results.apiTable.errorRate', (api) => <ErrorRateBadge errorRate={api.error_rate} />),
  ];
  return (
    <Card data-testid={testId ?? 'api-results-table'}>
      <CardHeader className="pb-3">
        <CardTitle as="h3">{title ?? t('results.apiTable.title')}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
        <ApiHostLine origin={origin} />
      </CardHeader>
      <DataTable
        columns={columns}
        rows={apiResults}
        rowKey={(api, index) => `${index}-${rowLabel(api, index, t)}`}
        rowClassName="hover:bg-muted/30"
        rowAttributes={() => ({ 'data-testid': 'api-table-row' })}
        minWidth="min-w-[760px]"
      />
    </Card>
  );
}

export interface ApiResultsListProps {
  apiResults: readonly ApiResult[];
  title?: string;
  description?: string;
  'data-testid'?: string;
}

/**
 * The API Results list (docs/reference/02-running.md §2): per API its name, method badge, url, label, total, successful,
 * failed, error rate (badge), average and 95th percentile.
 */
export function ApiResultsList({
  apiResults,
  title,
  description,
  'data-testid': testId,
}: ApiResultsListProps) {
  const { t, locale } = useI18n();
  const origin = sharedOrigin(apiResults);
  return (
    <section
      aria-labelledby="api-results-title"
      className="space-y-3"
      data-testid={testId ?? 'api-results-list'}
    >
      <div>
        <h2 id="api-results-title" className="text-lg font-semibold tracking-tight">
          {title ?? t('results.apiList.title')}
        </h2>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
        <ApiHostLine origin={origin} className="mt-1" />
      </div>
      <ul className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        {apiResults.map((api, index) => {
          const name = rowLabel(api, index, t);
          const own = ownApiName(api);
          const figures = [
            { label: t('results.apiList.total'), value: formatCount(api.total_requests, locale) },
            { label: t('results.apiList.successful'), value: formatCount(successfulOf(api), locale) },
            { label: t('results.apiList.failed'), value: formatCount(api.failed_requests, locale) },
            { label: t('results.apiList.average'), value: formatMs(api.average_response_time, locale) },
            { label: t('results.apiList.p95'), value: formatMs(api.percentile_95, locale) },
          ];
          return (
            <li key={`${index}-${name}`} data-testid="api-result">
              <Card className="h-full p-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0 space-y-1">
                    <div className="flex min-w-0 items-center gap-2">
                      <MethodBadge method={api.method} />
                      <p
                        className="truncate font-medium"
                        title={api.url ?? name}
                        data-testid="api-result-name"
                      >
                        {name}
                      </p>
                    </div>
                    <ApiUrlLine api={api} origin={origin} />
                    {own && api.label?.trim() && api.label.trim() !== name && !api.label.includes('://') && (
                      <p className="truncate text-xs text-muted-foreground">
                        {t('results.apiList.label')}: {api.label}
                      </p>
                    )}
                  </div>
                  <div className="flex shrink-0 flex-col items-end gap-1">
                    <span className="text-[11px] text-muted-foreground">
                      {t('results.apiList.errorRate')}
                    </span>
                    <ErrorRateBadge errorRate={api.error_rate} />
                  </div>
                </div>
                <dl className="mt-3 grid grid-cols-3 gap-x-3 gap-y-2 sm:grid-cols-5">
                  {figures.map((figure) => (
                    <div key={figure.label} className="min-w-0">
                      <dt className="truncate text-[11px] text-muted-foreground">{figure.label}</dt>
                      <dd className="num truncate text-sm font-semibold">{figure.value}</dd>
                    </div>
                  ))}
                </dl>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
