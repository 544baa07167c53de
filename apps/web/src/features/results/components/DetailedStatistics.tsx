import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import {
  formatCount,
  formatKbs,
  formatMs,
  formatNumber,
  formatSeconds,
  isBuiltInEngine,
  isNumber,
  toolName,
} from '../model/format';
import { flowShares, type ResultSummary as TestSummary } from '@aqa/plan';

export interface DetailedStatisticsProps {
  summary: TestSummary;
  /** The plan's tool (the script format). */
  tool?: string | null;
  /** What really ran the load: the tool itself or "built-in". */
  engine?: string | null;
  /** The server's words on why that engine ran. */
  engineNote?: string | null;
  /** Concurrent users of the run, when the summary does not carry them. */
  concurrentUsers?: number | null;
}

const BUILT_IN_NOTE = /^ran with the built-in engine: (.+?) is not installed on this server\.?$/i;
/** A tool that is installed but failed the server's check: "<the reason>; this run used the built-in engine". */
const UNUSABLE_NOTE = /^(.+); this run used the built-in engine\.?$/i;

/** The engine note in the active language when it is one we know; the server's words otherwise. */
export function engineNoteText(
  note: string | null | undefined,
  engine: string | null | undefined,
  tool: string | null | undefined,
  t: Translate,
): string | null {
  const text = note?.trim();
  const match = text ? BUILT_IN_NOTE.exec(text) : null;
  if (match?.[1]) return t('results.stats.engineNoteBuiltIn', { tool: toolName(match[1]) });
  const unusable = text ? UNUSABLE_NOTE.exec(text) : null;
  // The reason is the server's own sentence (it quotes the tool); the rest is in the active language.
  if (unusable?.[1]) return t('results.stats.engineNoteUnusable', { reason: unusable[1] });
  // Shown as a banner: a sentence, so it starts with a capital even when the server's words do not.
  if (text) return text.charAt(0).toUpperCase() + text.slice(1);
  if (isBuiltInEngine(engine) && tool) return t('results.stats.engineNoteBuiltIn', { tool: toolName(tool) });
  return null;
}

/** The name of the engine that ran the load, for people: "built-in" or the tool's name. */
export function engineName(engine: string | null | undefined, t: Translate): string | null {
  if (!engine?.trim()) return null;
  return isBuiltInEngine(engine) ? t('results.stats.engineBuiltIn') : toolName(engine);
}

/** One row of Detailed Statistics: a label and its figure (numbers in tabular digits). */
function StatRow({
  id,
  label,
  value,
  numeric = false,
}: {
  id: string;
  label: string;
  value: string;
  numeric?: boolean;
}) {
  return (
    <div
      className="flex items-baseline justify-between gap-4 border-b border-border py-2.5 text-sm"
      data-testid={`stat-${id}`}
    >
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={numeric ? 'num whitespace-nowrap font-medium' : 'font-medium'}>{value}</dd>
    </div>
  );
}

/**
 * Detailed Statistics (docs/reference/02-running.md §2): test duration, concurrent users, avg / 95th / min / max response time,
 * average bandwidth and the test tool (default Taurus) — the engine that really ran, with the plan's tool
 * and the reason in words when the built-in engine stood in for it.
 */
export function DetailedStatistics({
  summary,
  tool,
  engine,
  engineNote,
  concurrentUsers,
}: DetailedStatisticsProps) {
  const { t, locale } = useI18n();
  const users = isNumber(summary.concurrent_users) ? summary.concurrent_users : concurrentUsers;
  const rows: { label: MessageKey; value: string; id: string }[] = [
    {
      label: 'results.stats.testDuration',
      value: formatSeconds(summary.test_duration, locale),
      id: 'duration',
    },
    { label: 'results.stats.concurrentUsers', value: formatCount(users, locale), id: 'users' },
    { label: 'results.stats.avg', value: formatMs(summary.average_response_time, locale), id: 'avg' },
    { label: 'results.stats.p95', value: formatMs(summary.percentile_95, locale), id: 'p95' },
    { label: 'results.stats.min', value: formatMs(summary.min_response_time, locale), id: 'min' },
    { label: 'results.stats.max', value: formatMs(summary.max_response_time, locale), id: 'max' },
    { label: 'results.stats.bandwidth', value: formatKbs(summary.avg_bandwidth, locale), id: 'bandwidth' },
  ];
  // Further measured percentiles, shown only when the server sent them.
  const extra: { label: MessageKey; value: number | null | undefined; id: string }[] = [
    { label: 'results.stats.p50', value: summary.percentile_50, id: 'p50' },
    { label: 'results.stats.p90', value: summary.percentile_90, id: 'p90' },
    { label: 'results.stats.p99', value: summary.percentile_99, id: 'p99' },
    { label: 'results.stats.p999', value: summary.percentile_999, id: 'p999' },
  ];
  // An open-model load profile's iterations (docs/adr/0027-load-profiles.md): the dropped ones are shown,
  // never hidden, and only for a run that counted them.
  const iterations: { label: MessageKey; value: string; id: string }[] = isNumber(summary.iterations_started)
    ? [
        {
          label: 'results.stats.iterationsStarted',
          value: formatCount(summary.iterations_started, locale),
          id: 'iterations-started',
        },
        {
          label: 'results.stats.iterationsDropped',
          value: formatCount(summary.iterations_dropped ?? 0, locale),
          id: 'iterations-dropped',
        },
        // How late the started ones began after they were due, over the run (ADR 0027 "2. The schedule").
        ...(summary.schedule_lag
          ? [
              {
                label: 'results.stats.scheduleLag' as const,
                value: `${formatMs(summary.schedule_lag.p99, locale)} (p95 ${formatMs(summary.schedule_lag.p95, locale)})`,
                id: 'schedule-lag',
              },
            ]
          : []),
      ]
    : [];
  // A plan with flows (docs/adr/0027-load-profiles.md "Flows"): each flow's iterations and share of them.
  const flows = flowShares(summary.flows);
  const note = engineNoteText(engineNote, engine, tool, t);
  // The tool shown is what really ran the load (docs/design.md §4); the plan's tool follows when it differs.
  const builtIn = isBuiltInEngine(engine);
  const testTool = builtIn
    ? t('results.stats.builtInEngine')
    : engine?.trim()
      ? toolName(engine)
      : toolName(tool);
  const planTool = builtIn && tool?.trim() ? toolName(tool) : null;

  return (
    <Card data-testid="detailed-statistics">
      <CardHeader className="pb-3">
        <CardTitle as="h3">{t('results.stats.title')}</CardTitle>
      </CardHeader>
      <dl className="grid grid-cols-1 gap-x-8 px-6 pb-6 sm:grid-cols-2 xl:grid-cols-3">
        {[
          ...rows,
          ...extra
            .filter((row) => isNumber(row.value))
            .map((row) => ({ ...row, value: formatMs(row.value, locale) })),
          ...iterations,
        ].map((row) => (
          <StatRow key={row.id} id={row.id} label={t(row.label)} value={row.value} numeric />
        ))}
        {flows.map((flow, index) => (
          <StatRow
            key={`flow-${index}`}
            id={`flow-${index}`}
            label={t('flows.resultIterations', { name: flow.name })}
            value={t('flows.resultShare', {
              count: formatCount(flow.iterations, locale),
              share: formatNumber(flow.share, locale, 1, 1),
            })}
            numeric
          />
        ))}
        <StatRow id="tool" label={t('results.stats.tool')} value={testTool} />
        {planTool && <StatRow id="plan-tool" label={t('results.stats.planTool')} value={planTool} />}
      </dl>
      {note && (
        <p className="-mt-2 px-6 pb-6 text-[13px] text-muted-foreground" data-testid="engine-note">
          {note}
        </p>
      )}
    </Card>
  );
}
