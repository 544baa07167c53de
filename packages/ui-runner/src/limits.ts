/*
 * How many browsers the UI runs of a server may hold, in all and per user (docs/design.md §9 "UI tests").
 * Without Playwright, so the server's configuration can check AQA_UI_BROWSERS_PER_USER against
 * AQA_UI_BROWSERS when it starts (apps/server/src/config.ts).
 */

export const DEFAULT_UI_BROWSERS = 2;

/** One user's share of the browsers when AQA_UI_BROWSERS_PER_USER is unset: half, at least 1. */
export function defaultBrowsersPerUser(maxBrowsers: number): number {
  return Math.max(1, Math.floor(maxBrowsers / 2));
}

/**
 * Why a per-user share cannot be used with that many browsers, or null: it must leave another user a
 * browser (below the count), as MAX_RUNS_PER_USER must stay below MAX_RUNS_PER_SERVER. With one
 * browser there is nothing to share, and only the default applies.
 */
export function browsersPerUserProblem(maxBrowsers: number, maxPerUser: number): string | null {
  if (!Number.isInteger(maxPerUser) || maxPerUser < 1) {
    return `must be a whole number of at least 1, not ${maxPerUser}`;
  }
  if (maxPerUser >= maxBrowsers) {
    return `must be below AQA_UI_BROWSERS (${maxBrowsers}) so that one user cannot hold every browser`;
  }
  return null;
}
