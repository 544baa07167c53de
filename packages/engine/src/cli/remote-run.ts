/**
 * `aqa run --plan ID --server URL --token T`: starts a saved performance plan on the server
 * (POST /api/run-test), follows it live (GET /api/test-stream/{id}, else get-test-result every 2 s),
 * prints the summary and judges the plan's thresholds and --threshold on the server's final figures
 * (docs/reference/02-running.md §7).
 *
 * Exit codes as `aqa run`: 0 every threshold held (or none was set); 1 a threshold failed; 2 the run
 * could not run or did not end by itself (bad arguments, the server unreachable, a refused token, an
 * unknown plan, a run the server refused, a failed, interrupted or stopped run); an abort threshold
 * that stopped the run exits 1, as a failed threshold.
 */
import { contract, requestOf, SavedPlanSchema } from '@aqa/contract';
import {
  evaluateThresholds,
  FINAL_STATUSES,
  LiveSnapshotSchema,
  TestResultSchema,
  ThresholdSyntaxError,
  type LiveSnapshot,
  type TestResult,
  type Threshold,
  type ThresholdResult,
} from '@aqa/plan';
import { RemoteClient, RemoteError, serverEvents, sleep, type RemoteTarget } from './remote-client';
import {
  abortLines,
  clip,
  iterationsText,
  junitXml,
  ms,
  summaryTable,
  table,
  thresholdsLines,
  twoDecimals,
  whole,
} from './report';
import { writeOutputFile } from './output-file';
import { stopOnSignals } from './signals';

export const REMOTE_EXIT_OK = 0;
export const REMOTE_EXIT_THRESHOLD_FAILED = 1;
export const REMOTE_EXIT_CANNOT_RUN = 2;

/** How often the run is read when its live stream is not available. */
const POLL_MS = 2000;
/** Reads of a run in a row that may fail before the server counts as lost. */
const POLL_FAILURES_ALLOWED = 5;

/** What a remote run is asked: the saved plan, its overrides, and what to write. */
export interface RemoteRunRequest {
  planId: string;
  /** Whole seconds; the server's duration_seconds override. */
  durationSeconds?: number | undefined;
  users?: number | undefined;
  /** --threshold, already read; the plan's own are added from the server. */
  thresholds: Threshold[];
  parseThreshold: (text: string) => Threshold;
  junit?: string | undefined;
  summaryJson?: string | undefined;
  quiet: boolean;
}

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s);

/** One second of the run as the terminal shows it: elapsed, users, requests, req/s, p95, errors. */
export function remoteProgressLine(s: LiveSnapshot, totalS: number): string {
  return (
    `[${Math.round(s.elapsed_seconds)}s/${Math.round(totalS)}s] users ${s.active_users}` +
    ` | requests ${whole.format(s.totals.requests)} | ${whole.format(s.requests_per_second)} req/s` +
    ` | p95 ${ms(s.latency.p95)} | errors ${twoDecimals.format(s.error_rate)}%`
  );
}

/** The run's final figures as text tables: the run, each step, its errors, the thresholds. */
export function remoteSummaryText(r: TestResult, thresholds: ThresholdResult[]): string {
  const lines: string[] = [`Run ${r.status}: ${r.plan_name}, ${r.concurrent_users} users, ${r.engine_note}`];
  const s = r.summary;
  if (s !== null) {
    lines.push('');
    lines.push(
      summaryTable(s, [
        'requests',
        'ok',
        'failed',
        'error %',
        'req/s',
        'avg',
        'p50',
        'p90',
        'p95',
        'p99',
        'max',
        'seconds',
      ]),
    );
    const dropped = iterationsLine(s);
    if (dropped !== null) lines.push(dropped);
    const flows = flowsLine(s);
    if (flows !== null) lines.push(flows);
  }
  if (r.api_results.length > 0) {
    lines.push('');
    lines.push(
      table(
        [
          ['step', 'requests', 'failed', 'error %', 'avg', 'p95', 'p99'],
          ...r.api_results.map((a) => [
            clip(a.name, 60),
            whole.format(a.total_requests),
            whole.format(a.failed_requests),
            twoDecimals.format(a.error_rate),
            ms(a.average_response_time),
            ms(a.percentile_95),
            ms(a.percentile_99),
          ]),
        ],
        [false, true, true, true, true, true, true],
      ),
    );
  }
  const kinds = Object.entries(r.errors);
  if (kinds.length > 0) {
    lines.push('', 'Errors:');
    for (const [kind, tally] of kinds) {
      lines.push(`  ${kind}: ${whole.format(tally.count)}`);
      for (const sample of tally.samples) lines.push(`    e.g. ${sample.slice(0, 160)}`);
    }
  }
  // A run an abort threshold stopped says so as a local run does (its error is the same reason).
  if (r.abort_reason !== null && r.abort_reason !== undefined)
    lines.push(...abortLines({ aborted: r.abort_reason, breaking_point: r.breaking_point }));
  else if (r.error !== null) lines.push('', r.error);
  lines.push(...thresholdsLines(thresholds));
  return `${lines.join('\n')}\n`;
}

/**
 * An open-model load profile's iterations (docs/adr/0027-load-profiles.md): started and dropped, the
 * dropped ones said plainly, since they are load the plan asked for and the target never got.
 */
export function iterationsLine(s: NonNullable<TestResult['summary']>): string | null {
  if (s.iterations_started === undefined) return null;
  const text = iterationsText(s.iterations_started, s.iterations_dropped ?? 0, {
    planned: false,
    advice: 'due while no user of the pool was free: raise max_users',
  });
  // The schedule lag the server stored, as a local run says it (docs/adr/0027-load-profiles.md "2. The schedule").
  const lag = s.schedule_lag;
  return lag === undefined ? text : `${text}; started late by p95 ${ms(lag.p95)}, p99 ${ms(lag.p99)}`;
}

/**
 * A plan with flows (docs/adr/0027-load-profiles.md "Flows"): each flow's iterations and share of them,
 * as the server stored them.
 */
export function flowsLine(s: NonNullable<TestResult['summary']>): string | null {
  if (s.flows === undefined || s.flows.length === 0) return null;
  const all = s.flows.reduce((sum, flow) => sum + flow.iterations, 0);
  const share = (n: number): string => (all ? ((n / all) * 100).toFixed(1) : '0.0');
  return `Flows: ${s.flows.map((f) => `${f.name} ${whole.format(f.iterations)} (${share(f.iterations)} %)`).join(', ')}`;
}

const isFinal = (status: string): boolean => (FINAL_STATUSES as readonly string[]).includes(status);

/**
 * Follows a run to its end: the live stream's snapshots go to `onSnapshot`, its end event is the
 * result. A stream that cannot open or breaks off is replaced by reading get-test-result every 2 s.
 */
export async function followRun(
  client: RemoteClient,
  testId: string,
  onSnapshot: (s: LiveSnapshot, durationS: number) => void,
  onNotice: (text: string) => void,
): Promise<TestResult> {
  // The run's configured seconds, from the stream's status event; until then, as the progress implies.
  let durationS: number | undefined;
  try {
    // The stream is read as it comes, not as one answer: its request is the contract's, sent raw.
    const stream = requestOf(contract.runs.stream, { params: { id: testId } });
    const response = await client.send(stream.method, stream.path);
    if (response.body !== null) {
      for await (const event of serverEvents(response.body)) {
        if (event.event === 'status') {
          const status = TestResultSchema.safeParse(event.data);
          if (status.success) durationS = status.data.duration_seconds;
        } else if (event.event === 'snapshot') {
          const snapshot = LiveSnapshotSchema.safeParse(event.data);
          if (snapshot.success) {
            const s = snapshot.data;
            onSnapshot(
              s,
              durationS ?? (s.progress > 0 ? (s.elapsed_seconds * 100) / s.progress : s.elapsed_seconds),
            );
          }
        } else if (event.event === 'end') {
          const result = TestResultSchema.safeParse(event.data);
          if (result.success && isFinal(result.data.status)) return result.data;
        }
      }
    }
    onNotice('the live stream ended early; reading the run every 2 seconds');
  } catch (error) {
    onNotice(
      `the live stream is not available (${(error as Error).message}); reading the run every 2 seconds`,
    );
  }
  let failures = 0;
  for (;;) {
    try {
      const result = await client.call(contract.runs.result, { params: { id: testId } });
      failures = 0;
      if (isFinal(result.status)) return result;
    } catch (error) {
      failures++;
      if (failures > POLL_FAILURES_ALLOWED) throw error;
    }
    await sleep(POLL_MS);
  }
}

/** The saved plan's name and thresholds: all the command needs of it (the server runs the rest). */
const SavedPlanThresholdsSchema = SavedPlanSchema.pick({ name: true, thresholds: true });

export async function remoteRun(target: RemoteTarget, request: RemoteRunRequest): Promise<number> {
  const client = new RemoteClient(target);
  const notFound = { notFound: `performance plan ${request.planId}` };
  const plan = await client.read(
    SavedPlanThresholdsSchema,
    contract.plans.get,
    { params: { id: request.planId } },
    notFound,
  );
  let thresholds: Threshold[];
  try {
    thresholds = [...(plan.thresholds ?? []).map(request.parseThreshold), ...request.thresholds];
  } catch (error) {
    throw new RemoteError(`the saved plan "${plan.name}" has a ${(error as Error).message}`);
  }
  const started = await client.call(
    contract.runs.start,
    {
      body: {
        plan_id: request.planId,
        ...(request.durationSeconds === undefined ? {} : { duration_seconds: request.durationSeconds }),
        ...(request.users === undefined ? {} : { concurrent_users: request.users }),
      },
    },
    notFound,
  );
  const testId = started.test_id;
  out(`${plan.name}: run ${testId} started on ${client.server} (${started.engine_note})\n`);
  out(`Result: ${client.server}/test-result/${encodeURIComponent(testId)}\n`);

  const detach = stopOnSignals(
    '\naqa: stopping the run on the server (Ctrl-C again to quit now)…\n',
    REMOTE_EXIT_CANNOT_RUN,
    () =>
      client.call(contract.runs.stop, { params: { id: testId } }).catch((error: unknown) => {
        err(`aqa: could not stop the run: ${(error as Error).message}\n`);
      }),
  );
  const tty = process.stderr.isTTY === true;
  let result: TestResult;
  try {
    result = await followRun(
      client,
      testId,
      (s, durationS) => {
        if (request.quiet) return;
        const line = remoteProgressLine(s, durationS);
        err(tty ? `\r\x1b[2K${line}` : `${line}\n`);
      },
      (notice) => err(`${tty ? '\n' : ''}aqa: ${notice}\n`),
    );
  } finally {
    detach();
  }
  if (tty && !request.quiet) err('\r\x1b[2K');

  let verdicts: ThresholdResult[];
  try {
    verdicts =
      result.summary === null
        ? []
        : evaluateThresholds(thresholds, result.summary, result.api_results, result.summary.flows);
  } catch (error) {
    // A scope naming no flow or API of the run (the plan's APIs are its result rows).
    if (error instanceof ThresholdSyntaxError) throw new RemoteError(error.message);
    throw error;
  }
  out(remoteSummaryText(result, verdicts));
  let written = true;
  if (request.summaryJson !== undefined && result.summary !== null) {
    written =
      writeOutputFile(
        request.summaryJson,
        `${JSON.stringify({ ...result.summary, status: result.status, api_results: result.api_results, errors: result.errors, thresholds: verdicts }, null, 2)}\n`,
      ) && written;
  }
  if (request.junit !== undefined && result.summary !== null) {
    written =
      writeOutputFile(request.junit, junitXml({ ...result, summary: result.summary }, verdicts, plan.name)) &&
      written;
  }
  // An abort threshold that stopped the run is a failed threshold, as in a local run (docs/adr/0027-load-profiles.md, "Abort criteria").
  if (result.status === 'stopped' && result.abort_reason !== null && result.abort_reason !== undefined)
    return written ? REMOTE_EXIT_THRESHOLD_FAILED : REMOTE_EXIT_CANNOT_RUN;
  if (result.status !== 'completed' || result.summary === null) {
    err(
      `aqa: the run did not complete: it ${result.status === 'stopped' ? 'was stopped before its end' : `ended ${result.status}`}${result.error === null ? '' : ` (${result.error})`}\n`,
    );
    return REMOTE_EXIT_CANNOT_RUN;
  }
  if (!written) return REMOTE_EXIT_CANNOT_RUN;
  return verdicts.every((t) => t.passed) ? REMOTE_EXIT_OK : REMOTE_EXIT_THRESHOLD_FAILED;
}
