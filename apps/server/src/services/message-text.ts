import {
  type ApiRowFigures,
  type BreakingPoint,
  breakingPointSaid,
  type FinalStatus,
  formatMs,
  evaluateThresholds,
  formatThresholdActual,
  parseThreshold,
  type ThresholdResult,
  type FunctionalStatus,
  type FunctionalSummary,
  innerPhrase,
  type MessageKind,
  type MessageTestType,
  type Phrase,
  type ResultSummary,
  rawPhrase,
  said,
  type Said,
  TEST_KINDS,
} from '@aqa/plan';

/*
 * The words of a run's message (docs/reference/02-running.md §2 "Messages"): a title that says how the
 * run ended and a one-line body of its measured figures, each part of the body also a phrase the web app
 * words in the user's language (docs/adr/0025-phrases.md). Pure, so every case is tested without a run.
 */

/** The most of a run's error the body quotes; the result screen shows all of it. */
const ERROR_CHARS = 200;

export interface MessageText {
  kind: MessageKind;
  test_type: MessageTestType;
  name: string;
  title: string;
  body: string;
  /** The parts of `body` (joined by " · ") as phrases. */
  body_phrases: Phrase[];
}

/** A load run as it was stored when it ended. */
export interface EndedLoadRun {
  name: string;
  status: FinalStatus;
  summary: ResultSummary | null;
  error: string | null;
  error_phrase?: Phrase | null | undefined;
  /** The plan's thresholds as written ("p95<300", "Login: p95<300"). */
  thresholds: readonly string[];
  /** Its API rows, which a scoped threshold is judged on; none: scoped thresholds are not checked. */
  api_results?: readonly ApiRowFigures[] | undefined;
  /** An aborted run's breaking point (its abort itself is the run's error). */
  breaking_point?: BreakingPoint | null | undefined;
}

/** A functional or UI run as it was stored when it ended. */
export interface EndedFunctionalRun {
  name: string;
  status: Exclude<FunctionalStatus, 'running'>;
  summary: FunctionalSummary;
  error: string | null;
  error_phrase?: Phrase | null | undefined;
}

function titleOf(name: string, type: MessageTestType, kind: MessageKind, broken = 0): string {
  // A message's test type is the name of the kind whose words it uses (docs/test-kinds.md).
  const test = `${name} ${TEST_KINDS[type].word}`;
  switch (kind) {
    case 'completed':
      return `${test} completed`;
    case 'failed':
      return `${test} failed`;
    case 'stopped':
      return `${test} was stopped`;
    case 'interrupted':
      return `${test} was interrupted`;
    case 'threshold_failed':
      return `${test} broke ${broken === 1 ? 'a threshold' : `${broken} thresholds`}`;
  }
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_CHARS ? `${flat.slice(0, ERROR_CHARS - 1)}…` : flat;
}

/** A run's error as a part of the body: its phrase when it has one and fits the line, else its words. */
function errorPart(error: string, phrase: Phrase | null | undefined): Said {
  const text = oneLine(error);
  return {
    text,
    phrase: phrase !== null && phrase !== undefined && text === error ? phrase : rawPhrase(text),
  };
}

function loadFigures(summary: ResultSummary): Said {
  return said('message.loadFigures', {
    count: summary.total_requests,
    requests: count.format(summary.total_requests),
    errorRate: decimals.format(summary.error_rate),
    p95: formatMs(summary.percentile_95),
  });
}

/** The message's body and its phrases from its parts. */
function bodyOf(parts: readonly Said[]): Pick<MessageText, 'body' | 'body_phrases'> {
  return { body: parts.map((part) => part.text).join(' · '), body_phrases: parts.map((part) => part.phrase) };
}

/**
 * The plan's thresholds judged on the summary and, scoped, on their APIs' rows; and those that could
 * not be judged, with why (an expression that does not read, a scope naming no API of the run).
 */
export function judgeThresholds(
  written: readonly string[],
  summary: ResultSummary,
  apiRows: readonly ApiRowFigures[] = [],
): { results: ThresholdResult[]; unreadable: string[] } {
  const results: ThresholdResult[] = [];
  const unreadable: string[] = [];
  for (const text of written) {
    try {
      // evaluateThresholds throws, in words, for a scope that names no flow or API of the run (or a flow
      // whose requests the run did not measure).
      results.push(...evaluateThresholds([parseThreshold(text)], summary, apiRows, summary.flows));
    } catch (err) {
      unreadable.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { results, unreadable };
}

/**
 * A load run's message. A completed run is judged on its plan's thresholds with the engine's own parser
 * (packages/plan/src/thresholds.ts, as `aqa run` judges them; a scoped one on its flow's or its API's row); a run that broke one is
 * `threshold_failed` and its body names each broken threshold with the measured value. A run that was
 * stopped, failed or interrupted ran short, so its partial figures are not judged.
 */
export function loadRunMessage(run: EndedLoadRun): MessageText {
  const parts: Said[] = [];
  let kind: MessageKind = run.status;
  let broken = 0;
  if (run.summary === null) parts.push(said('message.noRequests'));
  else {
    if (run.status === 'completed' && run.thresholds.length > 0) {
      const { results, unreadable } = judgeThresholds(run.thresholds, run.summary, run.api_results);
      const failed = results.filter((r) => !r.passed);
      broken = failed.length;
      if (broken > 0) {
        kind = 'threshold_failed';
        const thresholds = failed.map((r) =>
          innerPhrase('message.brokeOne', {
            threshold: r.threshold,
            actual: formatThresholdActual(r.metric, r.actual),
          }),
        );
        parts.push(said('message.broke', { thresholds }));
      } else if (results.length === 1) {
        parts.push(said('message.thresholdHeld'));
      } else if (results.length > 0) {
        parts.push(said('message.thresholdsHeld', { count: results.length }));
      }
      for (const problem of unreadable) parts.push(said('message.notChecked', { problem }));
    }
    parts.push(loadFigures(run.summary));
  }
  if (run.status !== 'completed' && run.error !== null && run.error.trim() !== '')
    parts.push(errorPart(run.error, run.error_phrase));
  // A run an abort threshold stopped (its reason above): the highest load that held (docs/adr/0027-load-profiles.md, "Abort criteria").
  if (run.breaking_point !== undefined && run.breaking_point !== null) {
    const point = breakingPointSaid(run.breaking_point);
    parts.push(said('message.breakingPoint', { point: point.phrase }));
  }
  return {
    kind,
    test_type: 'load',
    name: run.name,
    title: titleOf(run.name, 'load', kind, broken),
    ...bodyOf(parts),
  };
}

/** How a functional run's message counts what it judged: an API or script run's calls, a UI run's steps. */
export interface FunctionalWording {
  /** The kind whose words the message uses (docs/test-kinds.md). */
  type: MessageTestType;
  /** The phrase counting what it judged. */
  counted: 'message.calls' | 'message.steps';
}

/** An API or script run's message counts its calls, as an API test's (its kind's adapter, functional-kinds.ts). */
export const CALLS_WORDING: FunctionalWording = { type: 'api', counted: 'message.calls' };
/** A UI run's message counts its steps, as a UI test's (its kind's adapter, functional-kinds.ts). */
export const STEPS_WORDING: FunctionalWording = { type: 'ui', counted: 'message.steps' };

/**
 * A functional or UI run's message, in its kind's words: what it judged, how many passed and failed, and
 * why it ended early.
 */
export function functionalRunMessage(
  run: EndedFunctionalRun,
  { type, counted }: FunctionalWording,
): MessageText {
  const s = run.summary;
  const parts = [
    said(counted, {
      count: s.total_requests,
      total: count.format(s.total_requests),
      passed: count.format(s.successful_requests),
      failed: count.format(s.failed_requests),
    }),
  ];
  if (s.validation_failures > 0) {
    parts.push(
      said('message.validationsFailed', {
        count: s.validation_failures,
        total: count.format(s.validation_failures),
      }),
    );
  }
  if (run.error !== null && run.error.trim() !== '') parts.push(errorPart(run.error, run.error_phrase));
  return {
    kind: run.status,
    test_type: type,
    name: run.name,
    title: titleOf(run.name, type, run.status),
    ...bodyOf(parts),
  };
}
