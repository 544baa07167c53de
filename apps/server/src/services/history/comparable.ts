/**
 * Which runs can be compared and made a plan's baseline: a completed run, and also a run that ended
 * early — stopped by the user, failed part-way (its runner broke), or interrupted by a server restart
 * (docs/adr/0016-crash-recovery.md) — as long as it measured requests. Those figures cover only the seconds the run lasted, so such
 * a run is "partial" and the screens say so. A run still going, or one that measured nothing, is refused
 * with the reason.
 */

import { FINAL_STATUSES } from '@aqa/plan';

/** What the rule reads of a run (a past-run view). */
export interface ComparableRun {
  test_id: string;
  status: string;
  results_summary: { total_requests: number } | null;
}

export type Comparability =
  | { ok: true; partial: boolean }
  | { ok: false; code: 'RUN_NOT_FINISHED' | 'RUN_WITHOUT_RESULT'; message: string };

/** `purpose` words the refusal: comparing the run, or making it the baseline. */
export function comparability(
  run: ComparableRun,
  purpose: 'compare' | 'baseline' = 'compare',
): Comparability {
  if (!(FINAL_STATUSES as readonly string[]).includes(run.status)) {
    const what = purpose === 'compare' ? 'compare it' : 'make it the baseline';
    return {
      ok: false,
      code: 'RUN_NOT_FINISHED',
      message: `Run ${run.test_id} is still ${run.status}: ${what} once it has finished`,
    };
  }
  if ((run.results_summary?.total_requests ?? 0) <= 0) {
    const outcome = purpose === 'compare' ? 'it has no figures to compare' : 'it cannot be the baseline';
    return {
      ok: false,
      code: 'RUN_WITHOUT_RESULT',
      message: `Run ${run.test_id} (${run.status}) measured no request, so ${outcome}`,
    };
  }
  return { ok: true, partial: run.status !== 'completed' };
}
