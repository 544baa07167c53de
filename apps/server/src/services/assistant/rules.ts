/*
 * The tolerances James judges by (docs/design.md §10). A change inside them is noise between two runs of
 * the same plan and is not reported.
 */

/** A p95 or a throughput that moved by more than this percent of the earlier run is a regression. */
export const REGRESSION_TOLERANCE_PERCENT = 10;
/** An error rate that rose by more than this many percentage points is a regression. */
export const ERROR_RATE_TOLERANCE_POINTS = 1;
/** Users grown by at least this factor between two runs of one plan… */
export const SATURATION_USERS_FACTOR = 1.5;
/** …with throughput grown by less than this percent: the system has stopped keeping up. */
export const SATURATION_THROUGHPUT_GROWTH_PERCENT = 10;
/** The newest runs whose per-API rows rank the slowest and most failing APIs. */
export const RECENT_RUNS_FOR_APIS = 20;
