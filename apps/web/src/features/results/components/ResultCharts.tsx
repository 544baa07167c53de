import { Info } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/i18n';
import type { ChartView as ChartData, ResultView as TestResult } from '../model/views';
import { ApiComparisonChart } from './charts/ApiComparisonChart';
import { ApiTimelineChart } from './charts/ApiTimelineChart';
import { PerformanceMetricsChart } from './charts/PerformanceMetricsChart';
import { ResponseTimeDistributionChart } from './charts/ResponseTimeDistributionChart';
import { SuccessFailureChart } from './charts/SuccessFailureChart';
import { ErrorRateTrendChart, ThroughputChart } from './charts/TimeSeriesChart';
import { ApiResultsTable } from './ApiResults';
import { DetailedStatistics } from './DetailedStatistics';
import { ErrorsByKind } from './ErrorsByKind';
import { SummaryTiles } from './SummaryTiles';
import { timeAxisSeconds } from '../model/time-axis';

export interface ResultChartsProps {
  /** A run's results (GET /get-test-result, or a stored past run in the same shape). Needs a summary. */
  result: TestResult;
  /** Its measured series and histogram (GET /chart-data); null → the charts that need them are left out. */
  chartData: ChartData | null;
  /** Chart data still loading: a note instead of the time charts. */
  chartsLoading?: boolean;
}

/**
 * The Result charts set of docs/reference/02-running.md §2: the four tiles, Response Time Distribution, Success vs Failure,
 * Performance Metrics, API Performance Comparison (only with API results), Throughput Over Time, Error Rate
 * Trend, APIs Over Time (per-API series, beyond the spec), Detailed Statistics and the API Results Details table. Every figure comes from the result or its
 * chart data; when the chart data is missing (docs/reference/02-running.md §8) the charts built from it are omitted.
 */
export function ResultCharts({ result, chartData, chartsLoading = false }: ResultChartsProps) {
  const { t } = useI18n();
  const summary = result.summary;
  if (!summary) return null;
  const apiResults = result.api_results ?? [];
  const series = chartData?.series ?? [];
  const apiSeries = chartData?.api_series ?? [];
  // A run that ended early: the time axes end at its last measured second.
  const duration = timeAxisSeconds(result.status, series, result.duration_seconds);

  return (
    <section className="space-y-4" aria-labelledby="result-charts-title" data-testid="result-charts">
      <h2 id="result-charts-title" className="sr-only">
        {t('results.charts.title')}
      </h2>
      <SummaryTiles summary={summary} />
      {chartsLoading && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner />
          {t('results.chartsLoading')}
        </p>
      )}
      {!chartsLoading && !chartData && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="charts-unavailable">
          <Info aria-hidden className="size-4 shrink-0" />
          {t('results.chartsUnavailable')}
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {chartData?.distribution && (
          <ResponseTimeDistributionChart
            distribution={chartData.distribution}
            fitted={chartData.distribution_fitted}
          />
        )}
        <SuccessFailureChart successful={summary.successful_requests} failed={summary.failed_requests} />
        <PerformanceMetricsChart summary={summary} />
        {apiResults.length > 0 && <ApiComparisonChart apiResults={apiResults} />}
        {chartData && <ThroughputChart series={series} durationSeconds={duration} />}
        {chartData && <ErrorRateTrendChart series={series} durationSeconds={duration} />}
        {apiSeries.length > 0 && (
          <ApiTimelineChart apiSeries={apiSeries} durationSeconds={duration} className="lg:col-span-2" />
        )}
      </div>
      <div className="grid grid-cols-1 gap-4">
        <DetailedStatistics
          summary={summary}
          tool={result.tool}
          engine={result.engine}
          engineNote={result.engine_note}
          concurrentUsers={result.concurrent_users}
        />
        <ErrorsByKind errors={result.errors} />
      </div>
      {apiResults.length > 0 && <ApiResultsTable apiResults={apiResults} />}
    </section>
  );
}
