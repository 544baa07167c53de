/**
 * What other features may use of the results feature. The lint rule of eslint.config.js lets other
 * features import a feature's top-level files only: this one, and `./charts` for the chart components
 * (kept apart because loading them registers Chart.js, which a screen without charts should not pull in).
 * The result screen itself is loaded by the router.
 */
export { AbortBanner } from './components/AbortBanner';
export { ApiHostLine, ApiResultsList, ApiUrlLine, MethodBadge } from './components/ApiResults';
export { FlowResultsTable } from './components/FlowResults';
export { apiRowLabel, sharedOrigin } from './model/chart-labels';
export { MetricTile, Sparkline } from './components/MetricTile';
export { IterationTiles } from './components/IterationTiles';
export { FinishedRunReports, ReportDownloads } from './components/ReportDownloads';
export { ResultTestId } from './components/ResultTestId';
export { isFinished } from './model/finished';
export {
  formatCount,
  formatKbs,
  formatMs,
  formatNumber,
  formatPercent,
  formatRps,
  formatSeconds,
  isNumber,
  MISSING,
  toolName,
} from './model/format';
export { hasTraffic } from './model/timeline';
export type { ApiRow, ChartView, ResultView, SeriesPoint } from './model/views';
export { dispositionFilename, fetchReport, fetchReportFile, type ReportFormat } from './queries/report-api';
export { chartDataKey, fetchChartData, fetchTestResult, testResultKey } from './queries/results-api';
