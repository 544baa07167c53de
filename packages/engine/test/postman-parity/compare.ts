import type { CallResult } from '@aqa/plan';
import type { AssertionOutcome, NewmanError } from './run-newman';

/*
 * Newman's assertions against ours, one by one: each assertion Newman reports is looked up in our run by
 * iteration, request, test name and occurrence (the n-th assertion of that name in that request and
 * iteration), and compared passed for passed. Shared by runner-parity.test.ts (our own collections) and
 * bench/postman-real-parity.mjs (published collections), docs/adr/0029-postman-collections.md §3.
 */

/** One assertion of either side, as compared. */
export interface Compared {
  iteration: number;
  request: string;
  assertion: string;
  passed: boolean;
  message?: string | undefined;
}

/** An assertion Newman and we judged differently, or that one side has and the other has not. */
export interface Disagreement {
  iteration: number;
  request: string;
  assertion: string;
  /** The occurrence among same-named assertions of the request in the iteration, from 0. */
  occurrence: number;
  newman: { passed: boolean; message?: string | undefined } | null;
  ours: { passed: boolean; message?: string | undefined } | null;
}

export interface Agreement {
  /** Assertions Newman reported. */
  total: number;
  agreed: number;
  /** Newman's assertions we judged otherwise or do not have, then those only we have. */
  disagree: Disagreement[];
  /**
   * Script errors both sides had: a script that threw is a failure Newman reports apart from the
   * assertions, and one failed detail of ours ("test script of request: TypeError: …"); one of ours
   * whose request and message match one of Newman's is no disagreement.
   */
  scriptErrors: number;
}

const key = (iteration: number, request: string, assertion: string, n: number): string =>
  JSON.stringify([iteration, request, assertion, n]);

/** Each outcome keyed by iteration, request, name and its occurrence among same-keyed ones. */
function keyed(list: readonly Compared[]): Map<string, Compared & { occurrence: number }> {
  const seen = new Map<string, number>();
  const out = new Map<string, Compared & { occurrence: number }>();
  for (const o of list) {
    const base = key(o.iteration, o.request, o.assertion, 0);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(key(o.iteration, o.request, o.assertion, n), { ...o, occurrence: n });
  }
  return out;
}

/**
 * Our run's assertions: every named validation detail of every call (rules and pm.test alike). A
 * pm.test with several expectations that the importer mapped becomes several rules of the test's name
 * (docs/adr/0029-postman-collections.md §1), where Newman has one assertion: consecutive rules of one
 * name in a call are compared as the one test they came from, passed when all passed, with the first
 * failure's message (Newman's test stops at its first failed expectation).
 */
export function ourAssertions(calls: readonly CallResult[]): Compared[] {
  return calls.flatMap((c) => {
    const out: (Compared & { rule: boolean })[] = [];
    // A rule the importer did not write (the default status rule) has no name: Newman has none.
    for (const d of c.validation_details.filter((x) => x.name !== undefined && x.name !== '')) {
      const rule = d.type !== 'script';
      const last = out.at(-1);
      if (rule && last?.rule === true && last.assertion === d.name) {
        if (last.passed && !d.passed) last.message = d.message;
        last.passed &&= d.passed;
        continue;
      }
      out.push({
        iteration: c.iteration ?? 1,
        request: c.api_name,
        assertion: d.name!,
        passed: d.passed,
        message: d.message,
        rule,
      });
    }
    return out.map(({ rule: _rule, ...o }) => o);
  });
}

/** Newman's assertions against our run's, as the parity tests count them. */
export function agreement(
  newman: readonly AssertionOutcome[],
  calls: readonly CallResult[],
  newmanErrors: readonly NewmanError[] = [],
): Agreement {
  const theirs = keyed(newman.map((o) => ({ ...o, message: o.error })));
  const mine = keyed(ourAssertions(calls));
  const side = (o: Compared | undefined) =>
    o === undefined ? null : { passed: o.passed, message: o.message };
  const disagree: Disagreement[] = [];
  for (const [k, t] of theirs) {
    const m = mine.get(k);
    if (m?.passed !== t.passed) disagree.push({ ...t, newman: side(t), ours: side(m) });
  }
  const unpaired = [...newmanErrors];
  let scriptErrors = 0;
  for (const [k, m] of mine) {
    if (theirs.has(k)) continue;
    const paired = m.passed
      ? -1
      : unpaired.findIndex((e) => e.source === m.request && (m.message ?? '').includes(e.message));
    if (paired >= 0) {
      unpaired.splice(paired, 1);
      scriptErrors += 1;
    } else disagree.push({ ...m, newman: null, ours: side(m) });
  }
  const missedByUs = disagree.filter((d) => d.newman !== null).length;
  return { total: theirs.size, agreed: theirs.size - missedByUs, disagree, scriptErrors };
}

/** A disagreement in one line: "iteration|request|test|n: Newman passed, ours missing". */
export function describeDisagreement(d: Disagreement): string {
  const said = (s: Disagreement['newman']) =>
    s === null
      ? 'missing'
      : `${s.passed ? 'passed' : 'failed'}${s.message && !s.passed ? ` (${s.message})` : ''}`;
  return `${d.iteration}|${d.request}|${d.assertion}|${d.occurrence}: Newman ${said(d.newman)}, ours ${said(d.ours)}`;
}
