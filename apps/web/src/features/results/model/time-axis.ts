/**
 * How many seconds a chart's time axis spans. A run that ran its course spans its planned duration
 * (docs/reference/02-running.md §9), so a run that is still going shows how far it has got. A run that
 * ended early — stopped, failed part-way, or interrupted by a server restart — spans only the seconds
 * it measured: its planned duration would leave most of the chart empty.
 */
export function timeAxisSeconds(
  status: string | null | undefined,
  series: readonly { second: number }[],
  plannedSeconds: number | null | undefined,
): number | null {
  const planned = typeof plannedSeconds === 'number' && plannedSeconds > 0 ? plannedSeconds : null;
  if (status !== 'stopped' && status !== 'failed' && status !== 'interrupted') return planned;
  const last = series.reduce((max, point) => Math.max(max, point.second), 0);
  if (last <= 0) return planned;
  return planned === null ? last : Math.min(last, planned);
}
