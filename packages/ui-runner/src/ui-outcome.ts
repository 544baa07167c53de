import type { FunctionalRunEnd, FunctionalRunOutcome, RunEndReason } from '@aqa/engine';
import { CallCount } from '@aqa/engine';
import type { CallResult, FunctionalApiResult, FunctionalResult, FunctionalValidation } from '@aqa/plan';
import type { UiPage } from './ui-pages';

/*
 * A UI run's outcome from its steps as they end (docs/design.md §9 "UI tests"), in the functional
 * runner's shape: the summary, one row per page, the steps themselves, and one timeline point per
 * step (its start in seconds from the run's start, its measured duration, and whether it failed).
 */

interface PageTally {
  steps: number;
  failed: number;
  timeSumMs: number;
  lastStatus: number | null;
  /** Per check name, in first-seen order: passed in every step so far. */
  rules: Map<string, boolean>;
}

/** A check's name in the page's row, as the API runner names a rule (packages/engine/src/call/compile-call.ts). */
function ruleName(v: FunctionalValidation): string {
  return v.name !== '' ? v.name : `${v.type} ${v.expected_value}`;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export class UiTally {
  private readonly count = new CallCount();
  private readonly tallies: PageTally[];
  private readonly points: FunctionalResult['timeline_data'] = [];

  constructor(private readonly pages: readonly UiPage[]) {
    this.tallies = pages.map((page) => ({
      steps: 0,
      failed: 0,
      timeSumMs: 0,
      lastStatus: null,
      rules: new Map(page.validations.map((v) => [ruleName(v), true])),
    }));
  }

  get steps(): number {
    return this.count.calls;
  }

  get allPassed(): boolean {
    return this.count.allPassed;
  }

  /** A step of page `pageIndex` that began `atMs` after the run started. */
  add(pageIndex: number, atMs: number, step: CallResult): void {
    // A script's assertions are details too, so each failed check counts once.
    this.count.add(step);
    const tally = this.tallies[pageIndex];
    if (tally !== undefined) {
      tally.steps++;
      if (!step.success) tally.failed++;
      tally.timeSumMs += step.response_time;
      tally.lastStatus = step.status_code;
      const pageValidations = this.pages[pageIndex]?.validations ?? [];
      step.validation_details.forEach((detail, i) => {
        const v = pageValidations[i];
        // A script's assertions are named by the action and what it expects: "assertTitle Order form".
        const name = v !== undefined ? ruleName(v) : `${detail.name ?? detail.type} ${detail.expected}`;
        tally.rules.set(name, (tally.rules.get(name) ?? true) && detail.passed);
      });
    }
    this.points.push({
      time: round2(Math.max(0, atMs) / 1000),
      response_time: step.response_time,
      requests: 1,
      failures: step.success ? 0 : 1,
    });
  }

  outcome(status: FunctionalRunEnd, start: Date, end: Date, error: RunEndReason): FunctionalRunOutcome {
    return this.count.outcome(status, start, end, error, {
      api_results: this.pageResults(),
      timeline_data: [...this.points],
    });
  }

  private pageResults(): FunctionalApiResult[] {
    return this.pages.map((page, i) => {
      const tally = this.tallies[i]!;
      return {
        name: page.name,
        // A page the run never reached (stopped, or the duration ended) is neither passed nor failed.
        status: tally.steps === 0 ? 'not_run' : tally.failed === 0 ? 'success' : 'failed',
        method: page.method,
        url: page.url ?? '',
        response_time: tally.steps === 0 ? 0 : round2(tally.timeSumMs / tally.steps),
        status_code: tally.lastStatus,
        validation_results: [...tally.rules].map(([name, passed]) => ({
          name,
          passed: tally.steps > 0 && passed,
        })),
      };
    });
  }
}
