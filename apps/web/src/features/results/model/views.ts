import type { ApiResult, ChartData, ChartPoint, TestResult } from '@aqa/plan';

/*
 * What the result screens draw, derived from @aqa/plan's answer types (never a copy of them): a view may
 * lack what only a stored run has, so a new answer field reaches the screens without a change here.
 */

/** Any field may be missing or null: what a view built from partial knowledge holds. */
type Loose<T> = { [K in keyof T]?: T[K] | null };

/**
 * A second of a timeline: a stored one (ChartPoint), or one measured live from the stream, which does
 * not carry the second's request and error counts or bandwidth.
 */
export type SeriesPoint = Omit<ChartPoint, 'requests' | 'errors' | 'bandwidth_kbs'> &
  Partial<Pick<ChartPoint, 'requests' | 'errors' | 'bandwidth_kbs'>>;

/** An API row as the lists show it: a stored API result, or a live step whose figures are not known yet. */
export type ApiRow = Loose<ApiResult>;

/** Chart data as drawn: the stored chart data, or only the seconds this screen measured live. */
export type ChartView = { series: SeriesPoint[] } & Partial<Omit<ChartData, 'series'>>;

/**
 * A run as the result screen and the charts read it: the server's answer, a past run's list item shown
 * through the same components, or an answer the screen must survive (docs/reference/02-running.md §4 reads
 * whatever shape arrives).
 */
export type ResultView = Loose<TestResult>;
