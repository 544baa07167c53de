import type { CallResult } from '@aqa/plan';

/**
 * A long result stays usable (docs/design.md §9): its calls are shown a page at a time, optionally only
 * the failed ones, each page grouped by iteration and user when the run had more than one of either.
 */
const CALLS_PAGE_SIZE = 25;

export type CallFilter = 'all' | 'failed';

/** A call with its place in the whole result: `number` is 1-based, for the 'API N' fallback name. */
export interface NumberedCall {
  call: CallResult;
  number: number;
}

export interface CallGroup {
  /** Null when the run had one iteration and one user: no heading. */
  iteration: number | null;
  user: number | null;
  calls: NumberedCall[];
}

export interface CallPage {
  groups: CallGroup[];
  /** Calls matching the filter, over all pages. */
  matching: number;
  /** The first page index after clamping (a filter can leave fewer pages). */
  page: number;
  pages: number;
  /** 0-based index of the first call shown among the matching ones, and one past the last. */
  from: number;
  to: number;
}

/** True when the calls came from more than one iteration or user, so each group gets a heading. */
function isMultiRun(calls: readonly CallResult[]): boolean {
  const iterations = new Set(calls.map((call) => call.iteration ?? 1));
  const users = new Set(calls.map((call) => call.user ?? 1));
  return iterations.size > 1 || users.size > 1;
}

export function pageOfCalls(
  calls: readonly CallResult[],
  filter: CallFilter,
  page: number,
  size: number = CALLS_PAGE_SIZE,
): CallPage {
  const numbered = calls.map((call, index) => ({ call, number: index + 1 }));
  const matching = filter === 'failed' ? numbered.filter(({ call }) => !call.success) : numbered;
  const pages = Math.max(1, Math.ceil(matching.length / size));
  const current = Math.min(Math.max(0, page), pages - 1);
  const from = current * size;
  const shown = matching.slice(from, from + size);
  const headed = isMultiRun(calls);

  const groups: CallGroup[] = [];
  for (const item of shown) {
    const iteration = headed ? (item.call.iteration ?? 1) : null;
    const user = headed ? (item.call.user ?? 1) : null;
    const last = groups[groups.length - 1];
    if (last && last.iteration === iteration && last.user === user) last.calls.push(item);
    else groups.push({ iteration, user, calls: [item] });
  }
  return { groups, matching: matching.length, page: current, pages, from, to: from + shown.length };
}

/** How many of a call's rules passed, of how many. */
export function passedCount(call: CallResult): { passed: number; total: number } {
  const total = call.validation_details.length;
  return { passed: call.validation_details.filter((detail) => detail.passed).length, total };
}

/** docs/reference/02-running.md §2: a status code is green from 200 to 299, red otherwise. */
export function isSuccessStatus(code: number | null | undefined): boolean {
  return typeof code === 'number' && code >= 200 && code <= 299;
}
