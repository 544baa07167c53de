import { flowRows, iterationFigures, type FlowRow } from '@aqa/plan';
import { DataTable, type DataColumn } from '@/components/data-table';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount, formatMs, formatNumber, formatPercent, MISSING } from '@/features/results';
import { useI18n } from '@/i18n';
import type { PastRun } from '../../queries/history-api';

interface Row {
  key: string;
  label: string;
  base: string;
  candidate: string;
}

/**
 * Both runs' iterations side by side (docs/adr/0027-load-profiles.md "8. Live and stored results"): started,
 * dropped with its percent of the iterations due and the schedule lag's p99 (arrival-rate runs), and each
 * flow's iterations and share with its calls' requests and p95 (built-in engine runs) — a figure a run
 * did not count is a dash, never a 0. Nothing when neither run counted any.
 */
export function CompareIterations({ base, candidate }: { base: PastRun; candidate: PastRun }) {
  const { t, locale } = useI18n();
  const figures = [iterationFigures(base.results_summary), iterationFigures(candidate.results_summary)];
  if (figures.every((figure) => figure === null)) return null;
  const [baseFigures, candidateFigures] = figures;
  const dropped = (figure: (typeof figures)[number]) =>
    figure?.dropped === null || figure === null
      ? MISSING
      : figure.droppedPercent === null
        ? formatCount(figure.dropped, locale)
        : `${formatCount(figure.dropped, locale)} (${formatPercent(figure.droppedPercent, locale)})`;
  const baseFlows = flowRows(base.results_summary?.flows);
  const candidateFlows = flowRows(candidate.results_summary?.flows);
  const names = [...candidateFlows, ...baseFlows]
    .map((flow) => flow.name)
    .filter((name, index, all) => all.indexOf(name) === index);
  const flowText = (flows: typeof baseFlows, name: string) => {
    const flow = flows.find((f) => f.name === name);
    return flow
      ? t('flows.resultShare', {
          count: formatCount(flow.iterations, locale),
          share: formatNumber(flow.share, locale, 1, 1),
        })
      : MISSING;
  };
  // A flow's calls' figures (built-in engine runs); a run that did not measure one shows a dash.
  const flowFigure = (flows: readonly FlowRow[], name: string, format: (flow: FlowRow) => string) => {
    const flow = flows.find((f) => f.name === name);
    return flow ? format(flow) : MISSING;
  };
  const measured = [...baseFlows, ...candidateFlows].some((flow) => flow.requests !== null);
  const lag = (run: PastRun) => {
    const p99 = run.results_summary?.schedule_lag?.p99;
    return p99 === undefined ? MISSING : formatMs(p99, locale);
  };
  const rows: Row[] = [
    {
      key: 'started',
      label: t('results.tile.iterations'),
      base: formatCount(baseFigures?.started, locale),
      candidate: formatCount(candidateFigures?.started, locale),
    },
    ...(baseFigures?.dropped !== null || candidateFigures?.dropped !== null
      ? [
          {
            key: 'dropped',
            label: t('results.tile.droppedIterations'),
            base: dropped(baseFigures ?? null),
            candidate: dropped(candidateFigures ?? null),
          },
        ]
      : []),
    ...(base.results_summary?.schedule_lag || candidate.results_summary?.schedule_lag
      ? [
          {
            key: 'schedule-lag',
            label: t('results.tile.scheduleLag'),
            base: lag(base),
            candidate: lag(candidate),
          },
        ]
      : []),
    ...names.flatMap((name) => [
      {
        key: `flow-${name}`,
        label: t('flows.resultIterations', { name }),
        base: flowText(baseFlows, name),
        candidate: flowText(candidateFlows, name),
      },
      ...(measured
        ? [
            {
              key: `flow-requests-${name}`,
              label: t('flows.compare.requests', { name }),
              base: flowFigure(baseFlows, name, (f) =>
                f.requests === null ? MISSING : formatCount(f.requests, locale),
              ),
              candidate: flowFigure(candidateFlows, name, (f) =>
                f.requests === null ? MISSING : formatCount(f.requests, locale),
              ),
            },
            {
              key: `flow-p95-${name}`,
              label: t('flows.compare.p95', { name }),
              base: flowFigure(baseFlows, name, (f) => (f.p95 === null ? MISSING : formatMs(f.p95, locale))),
              candidate: flowFigure(candidateFlows, name, (f) =>
                f.p95 === null ? MISSING : formatMs(f.p95, locale),
              ),
            },
          ]
        : []),
    ]),
  ];
  const columns: DataColumn<Row>[] = [
    {
      key: 'label',
      header: t('history.compare.metric'),
      rowHeader: true,
      cellClassName: 'whitespace-normal font-medium',
      cell: (row) => row.label,
    },
    {
      key: 'base',
      header: t('history.compare.base'),
      numeric: true,
      cellClassName: 'num',
      cell: (row) => row.base,
    },
    {
      key: 'candidate',
      header: t('history.compare.candidate'),
      numeric: true,
      cellClassName: 'num',
      cell: (row) => row.candidate,
    },
  ];
  return (
    <Card data-testid="compare-iterations">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('history.compare.iterationsTitle')}</CardTitle>
        <CardDescription>{t('history.compare.iterationsText')}</CardDescription>
      </CardHeader>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(row) => row.key}
        rowAttributes={(row) => ({ 'data-testid': 'compare-iteration', 'data-key': row.key })}
        compact
      />
    </Card>
  );
}
