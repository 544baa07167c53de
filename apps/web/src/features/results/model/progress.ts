/** docs/reference/02-running.md §4, §9: progress, elapsed time and the polling limits of the live result screen. */

/** Polling interval while the stream is unavailable (docs/reference/02-running.md §9). */
export const POLL_INTERVAL_MS = 3_000;
/** The elapsed timer ticks every second (docs/reference/02-running.md §9). */
export const TICK_MS = 1_000;
/** Extra time beyond the configured duration before the screen gives up waiting (docs/reference/02-running.md §9). */
export const POLLING_GRACE_SECONDS = 120;
/** Duration assumed when neither the run nor the stored configuration tells it (docs/reference/02-running.md §9: default 1 minute). */
export const DEFAULT_DURATION_SECONDS = 60;

/** Percent of the configured duration that has elapsed, 0–100 (capped), 0 when the duration is unknown. */
export function progressPercent(elapsedSeconds: number, durationSeconds: number): number {
  if (!(durationSeconds > 0) || !Number.isFinite(elapsedSeconds) || elapsedSeconds <= 0) return 0;
  return Math.min(100, (elapsedSeconds / durationSeconds) * 100);
}

/** Maximum polling time in seconds: duration × 60 + 120 for a duration in minutes (docs/reference/02-running.md §9). */
export function maxPollingSeconds(durationSeconds: number | null | undefined): number {
  const duration =
    durationSeconds !== null && durationSeconds !== undefined && durationSeconds > 0
      ? durationSeconds
      : DEFAULT_DURATION_SECONDS;
  return duration + POLLING_GRACE_SECONDS;
}

/** Minutes → seconds for the spec's `duration` (fallback 1 minute when not a positive number). */
export function minutesToSeconds(minutes: unknown): number {
  const value = typeof minutes === 'string' ? Number(minutes) : minutes;
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.round(value * 60)
    : DEFAULT_DURATION_SECONDS;
}

/**
 * A clock reading: `seconds` of the run had elapsed at `at` (ms since the epoch). The screen keeps the last
 * reading the server sent and counts on from it every second.
 */
export interface ElapsedReading {
  seconds: number;
  at: number;
}

/** Whole seconds elapsed at `now`, counting on from a reading. */
export function elapsedAt(reading: ElapsedReading, now: number): number {
  return Math.max(0, Math.floor(reading.seconds + Math.max(0, now - reading.at) / 1000));
}
