import {
  evaluateThresholds,
  isLatencyMetric,
  parseThreshold,
  type Threshold,
  type ThresholdMetric,
  type ThresholdResult,
} from '@aqa/engine';
import type {
  FinalStatus,
  FunctionalStatus,
  FunctionalSummary,
  MessageKind,
  MessageTestType,
  ResultSummary,
} from '@aqa/plan';

/*
 * The words of a run's message (docs/reference/02-running.md §2 "Messages"): a title that says how the
 * run ended and a one-line body of its measured figures. Pure, so every case is tested without a run.
 */

/** The most of a run's error the body quotes; the result screen shows all of it. */
const ERROR_CHARS = 200;

export interface MessageText {
  kind: MessageKind;
  test_type: MessageTestType;
  name: string;
  title: string;
  body: string;
}

/** A load run as it was stored when it ended. */
export interface EndedLoadRun {
  name: string;
  status: FinalStatus;
  summary: ResultSummary | null;
  error: string | null;
  /** The plan's thresholds as written ("p95<300"). */
  thresholds: readonly string[];
}

/** A functional or UI run as it was stored when it ended. */
export interface EndedFunctionalRun {
  name: string;
  ui: boolean;
  status: Exclude<FunctionalStatus, 'running'>;
  summary: FunctionalSummary;
  error: string | null;
}

const TEST_WORDS: Record<MessageTestType, string> = { load: 'load test', api: 'API test', ui: 'UI test' };

function titleOf(name: string, type: MessageTestType, kind: MessageKind, broken = 0): string {
  const test = `${name} ${TEST_WORDS[type]}`;
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

/** Milliseconds as the result screen rounds them: whole from 100 ms, one decimal below. */
export function formatMs(ms: number): string {
  return `${ms >= 100 ? count.format(ms) : decimals.format(Math.round(ms * 10) / 10)} ms`;
}

function formatActual(metric: ThresholdMetric, actual: number): string {
  if (isLatencyMetric(metric)) return formatMs(actual);
  if (metric === 'error_rate') return `${decimals.format(actual)}%`;
  if (metric === 'rps') return `${decimals.format(actual)} req/s`;
  return count.format(actual);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_CHARS ? `${flat.slice(0, ERROR_CHARS - 1)}…` : flat;
}

function loadFigures(summary: ResultSummary): string {
  const requests = `${count.format(summary.total_requests)} ${summary.total_requests === 1 ? 'request' : 'requests'}`;
  return `${requests} · error rate ${decimals.format(summary.error_rate)}% · p95 ${formatMs(summary.percentile_95)}`;
}

/** The plan's thresholds judged on the summary, and those that could not be read (with why). */
export function judgeThresholds(
  written: readonly string[],
  summary: ResultSummary,
): { results: ThresholdResult[]; unreadable: string[] } {
  const parsed: Threshold[] = [];
  const unreadable: string[] = [];
  for (const text of written) {
    try {
      parsed.push(parseThreshold(text));
    } catch (err) {
      unreadable.push(err instanceof Error ? err.message : String(err));
    }
  }
  const results = evaluateThresholds(parsed, summary);
  return { results, unreadable };
}

/**
 * A load run's message. A completed run is judged on its plan's thresholds with the engine's own parser
 * (packages/engine/src/cli/thresholds.ts, as `aqa run` judges them); a run that broke one is
 * `threshold_failed` and its body names each broken threshold with the measured value. A run that was
 * stopped, failed or interrupted ran short, so its partial figures are not judged.
 */
export function loadRunMessage(run: EndedLoadRun): MessageText {
  const parts: string[] = [];
  let kind: MessageKind = run.status;
  let broken = 0;
  if (run.summary === null) parts.push('No requests were measured');
  else {
    if (run.status === 'completed' && run.thresholds.length > 0) {
      const { results, unreadable } = judgeThresholds(run.thresholds, run.summary);
      const failed = results.filter((r) => !r.passed);
      broken = failed.length;
      if (broken > 0) {
        kind = 'threshold_failed';
        const list = failed.map((r) => `${r.threshold} (was ${formatActual(r.metric, r.actual)})`);
        parts.push(`Broke ${list.join(', ')}`);
      } else if (results.length > 0) {
        parts.push(`${results.length === 1 ? 'Threshold' : `All ${results.length} thresholds`} held`);
      }
      for (const problem of unreadable) parts.push(`Not checked: ${problem}`);
    }
    parts.push(loadFigures(run.summary));
  }
  if (run.status !== 'completed' && run.error !== null && run.error.trim() !== '')
    parts.push(oneLine(run.error));
  return {
    kind,
    test_type: 'load',
    name: run.name,
    title: titleOf(run.name, 'load', kind, broken),
    body: parts.join(' · '),
  };
}

/** A functional or UI run's message: its calls, how many passed and failed, and why it ended early. */
export function functionalRunMessage(run: EndedFunctionalRun): MessageText {
  const s = run.summary;
  const type: MessageTestType = run.ui ? 'ui' : 'api';
  const unit = run.ui ? 'step' : 'call';
  const parts = [
    `${count.format(s.total_requests)} ${s.total_requests === 1 ? unit : `${unit}s`}: ${count.format(s.successful_requests)} passed, ${count.format(s.failed_requests)} failed`,
  ];
  if (s.validation_failures > 0) {
    parts.push(
      `${count.format(s.validation_failures)} ${s.validation_failures === 1 ? 'validation' : 'validations'} failed`,
    );
  }
  if (run.error !== null && run.error.trim() !== '') parts.push(oneLine(run.error));
  return {
    kind: run.status,
    test_type: type,
    name: run.name,
    title: titleOf(run.name, type, run.status),
    body: parts.join(' · '),
  };
}
