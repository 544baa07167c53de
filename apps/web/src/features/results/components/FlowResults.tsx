import type { FlowRow } from '@aqa/plan';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '@/components/data-table';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n } from '@/i18n';
import { formatCount, formatMs, formatNumber, MISSING } from '../model/format';
import { ErrorRateBadge } from './ApiResults';

/**
 * The per-flow table of the live and the result screens (docs/adr/0027-load-profiles.md "Flows",
 * docs/reference/02-running.md §2): each flow's iterations and share, and its calls' requests, failures,
 * error rate and latency as the built-in engine merged them. A figure the run did not measure (a tool's
 * run counts each flow's iterations only) is a dash, never a 0. Nothing for a plan without flows.
 */
export function FlowResultsTable({
  rows,
  title,
  description,
  'data-testid': testId,
}: {
  rows: readonly FlowRow[];
  title: string;
  description: string;
  'data-testid': string;
}) {
  const { t, locale } = useI18n();
  if (rows.length === 0) return null;
  const ms = (value: number | null) => (value === null ? MISSING : formatMs(value, locale));
  const count = (value: number | null) => (value === null ? MISSING : formatCount(value, locale));
  const figure = (key: string, header: string, cell: (row: FlowRow) => ReactNode) => ({
    key,
    header,
    numeric: true,
    cellClassName: 'num',
    cellAttributes: () => ({ 'data-cell': key }),
    cell,
  });
  const columns: DataColumn<FlowRow>[] = [
    {
      key: 'name',
      header: t('flows.results.flow'),
      rowHeader: true,
      cellClassName: 'whitespace-normal font-medium',
      cell: (row) => row.name,
    },
    figure('iterations', t('flows.results.iterations'), (row) => formatCount(row.iterations, locale)),
    figure('share', t('flows.results.share'), (row) => `${formatNumber(row.share, locale, 1, 1)} %`),
    figure('requests', t('flows.results.requests'), (row) => count(row.requests)),
    figure('failed', t('flows.results.failed'), (row) => count(row.failed)),
    figure('errorRate', t('flows.results.errorRate'), (row) =>
      row.errorRate === null ? MISSING : <ErrorRateBadge errorRate={row.errorRate} />,
    ),
    figure('avg', t('flows.results.avg'), (row) => ms(row.avg)),
    figure('p95', t('flows.results.p95'), (row) => ms(row.p95)),
    figure('p99', t('flows.results.p99'), (row) => ms(row.p99)),
  ];
  return (
    <Card data-testid={testId}>
      <CardHeader className="pb-3">
        <CardTitle as="h2">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(row, index) => `${index}-${row.name}`}
        rowAttributes={(row) => ({ 'data-testid': 'flow-row', 'data-flow': row.name })}
        minWidth="min-w-[720px]"
      />
    </Card>
  );
}
