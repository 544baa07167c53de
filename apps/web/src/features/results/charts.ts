/**
 * The result charts, for other features (the previous-results detail and the run comparison). Apart from
 * `./index` because loading them registers Chart.js.
 */
export { ChartCard } from './components/charts/ChartCard';
export { alpha, areaDataset, niceMax, useChartTheme } from './components/charts/chart-setup';
export { PerformanceTimeline } from './components/PerformanceTimeline';
export { ResultCharts } from './components/ResultCharts';
