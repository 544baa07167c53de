import {
  type CallResult,
  type FunctionalApiResult,
  type FunctionalPlan,
  type FunctionalResult,
  KEPT_CALLS_MAX_BYTES,
  MAX_KEPT_CALLS,
} from '@aqa/plan';
import { apiValidations, ruleName } from '../call/compile-call';
import type { JudgedCall } from './runner';
import {
  type FunctionalRunEnd,
  type FunctionalRunOutcome,
  reasonColumns,
  type RunEndReason,
} from './run-types';

/*
 * A functional run's outcome built from its judged calls as they come (docs/design.md §9): the summary,
 * one row per API, one timeline point per second, and the first calls themselves.
 */

export { KEPT_CALLS_MAX_BYTES, MAX_KEPT_CALLS };

interface ApiTally {
  calls: number;
  failed: number;
  timeSumMs: number;
  lastStatus: number | null;
  /** The API's rules, then the Postman tests its scripts ran (by name, in the order first run). */
  ruleNames: string[];
  /** Per rule: passed in every call so far. */
  rulesPassed: boolean[];
  /** How many of ruleNames are the API's rules: a call's first details, one per rule. */
  rules: number;
  /** Where each test of the scripts sits in ruleNames. */
  tests: Map<string, number>;
}

/**
 * The most tests of an API's scripts its "API Results" row names: a test named from a data row is one
 * name per row, and the row stays small; past it the API's status still counts every test.
 */
export const MAX_API_RESULT_TESTS = 100;

interface Second {
  timeSumMs: number;
  requests: number;
  failures: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The first calls of a run, as its result lists them: at most MAX_KEPT_CALLS calls and at most
 * KEPT_CALLS_MAX_BYTES of them as JSON (docs/adr/0024-memory-bounds.md), so a run of calls full of
 * evidence, long messages or large captured values holds a bounded amount however long it runs. Once
 * a call does not fit, no later one is kept either: the list stays the run's first calls.
 */
export class KeptCalls {
  readonly calls: CallResult[] = [];
  private bytes = 0;
  private full = false;

  /** Keeps the call when the list has room for it; answers whether it did. */
  add(call: CallResult): boolean {
    if (this.full) return false;
    const size = this.calls.length < MAX_KEPT_CALLS ? Buffer.byteLength(JSON.stringify(call)) : Infinity;
    if (this.bytes + size > KEPT_CALLS_MAX_BYTES) {
      this.full = true;
      return false;
    }
    this.bytes += size;
    this.calls.push(call);
    return true;
  }

  /** The bytes of JSON the kept calls take. */
  get keptBytes(): number {
    return this.bytes;
  }
}

/**
 * The calls of a run as its summary counts them, for the API runner and the UI runner alike (a UI
 * step is a call): every call, the passed ones, each failed check once, and the first calls
 * themselves (KeptCalls).
 */
export class CallCount {
  private readonly kept = new KeptCalls();
  private total = 0;
  private passed = 0;
  private validationFailures = 0;

  get calls(): number {
    return this.total;
  }

  /** True when every call so far passed. */
  get allPassed(): boolean {
    return this.passed === this.total;
  }

  add(call: CallResult): void {
    this.total++;
    if (call.success) this.passed++;
    this.kept.add(call);
    this.validationFailures += call.validation_details.filter((d) => !d.passed).length;
  }

  /** The run's outcome: how it ended, these counts, and the rows and timeline its runner tallied. */
  outcome(
    status: FunctionalRunEnd,
    start: Date,
    end: Date,
    error: RunEndReason,
    tallied: Pick<FunctionalRunOutcome, 'api_results' | 'timeline_data'>,
  ): FunctionalRunOutcome {
    return {
      status,
      start_time: start.toISOString(),
      end_time: end.toISOString(),
      ...reasonColumns(error),
      summary: {
        total_requests: this.total,
        successful_requests: this.passed,
        failed_requests: this.total - this.passed,
        validation_failures: this.validationFailures,
      },
      validation_results: [...this.kept.calls],
      calls_omitted: this.total - this.kept.calls.length,
      api_results: tallied.api_results,
      timeline_data: tallied.timeline_data,
    };
  }
}

/**
 * The row of a Postman test (a `pm.test` the API's scripts ran, docs/adr/0029-postman-collections.md §3)
 * among the API's rules, added the first time it runs; undefined past MAX_API_RESULT_TESTS.
 */
function testRow(api: ApiTally, name: string): number | undefined {
  const known = api.tests.get(name);
  if (known !== undefined || api.tests.size >= MAX_API_RESULT_TESTS) return known;
  const at = api.ruleNames.push(name) - 1;
  api.rulesPassed.push(true);
  api.tests.set(name, at);
  return at;
}

export class FunctionalTally {
  private readonly count = new CallCount();
  private readonly apis: ApiTally[];
  private readonly seconds = new Map<number, Second>();

  constructor(private readonly plan: FunctionalPlan) {
    this.apis = plan.apis.map((api) => {
      const ruleNames = apiValidations(plan, api).map(ruleName);
      return {
        calls: 0,
        failed: 0,
        timeSumMs: 0,
        lastStatus: null,
        ruleNames,
        rulesPassed: ruleNames.map(() => true),
        rules: ruleNames.length,
        tests: new Map<string, number>(),
      };
    });
  }

  get calls(): number {
    return this.count.calls;
  }

  /** True when every call so far passed. */
  get allPassed(): boolean {
    return this.count.allPassed;
  }

  add({ apiIndex, atMs, call }: JudgedCall): void {
    this.count.add(call);
    const api = this.apis[apiIndex];
    if (api !== undefined) {
      api.calls++;
      if (!call.success) api.failed++;
      api.timeSumMs += call.response_time;
      api.lastStatus = call.status_code;
      call.validation_details.forEach((d, i) => {
        const at = i < api.rules ? i : d.type === 'script' && d.name ? testRow(api, d.name) : undefined;
        if (!d.passed && at !== undefined) api.rulesPassed[at] = false;
      });
    }

    const second = Math.max(0, Math.floor(atMs / 1000));
    const point = this.seconds.get(second) ?? { timeSumMs: 0, requests: 0, failures: 0 };
    point.requests++;
    point.timeSumMs += call.response_time;
    if (!call.success) point.failures++;
    this.seconds.set(second, point);
  }

  outcome(status: FunctionalRunEnd, start: Date, end: Date, error: RunEndReason): FunctionalRunOutcome {
    return this.count.outcome(status, start, end, error, {
      api_results: this.apiResults(),
      timeline_data: this.timeline(),
    });
  }

  private apiResults(): FunctionalApiResult[] {
    return this.plan.apis.map((api, i) => {
      const tally = this.apis[i]!;
      return {
        name: api.name,
        // An API the run never reached (stopped, or the duration ended) is neither passed nor failed.
        status: tally.calls === 0 ? 'not_run' : tally.failed === 0 ? 'success' : 'failed',
        method: api.method,
        url: api.url,
        response_time: tally.calls === 0 ? 0 : round2(tally.timeSumMs / tally.calls),
        status_code: tally.lastStatus,
        validation_results: tally.ruleNames.map((name, r) => ({
          name,
          passed: tally.calls > 0 && tally.rulesPassed[r]!,
        })),
      };
    });
  }

  private timeline(): FunctionalResult['timeline_data'] {
    const last = Math.max(-1, ...this.seconds.keys());
    return Array.from({ length: last + 1 }, (_, time) => {
      const s = this.seconds.get(time);
      return {
        time,
        response_time: s === undefined ? 0 : round2(s.timeSumMs / s.requests),
        requests: s?.requests ?? 0,
        failures: s?.failures ?? 0,
      };
    });
  }
}
