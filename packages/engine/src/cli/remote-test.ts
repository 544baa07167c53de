/**
 * `aqa test --plan ID --server URL --token T`: starts a saved functional plan on the server
 * (POST /api/functional/run-test with the plan as saved), asks get-test-status every second until the
 * run is over — printing each call as the server judges it (get-test-result answers the calls judged so
 * far while a run goes, read every LIVE_CALLS_MS) — then reads get-test-result once more, prints the
 * calls not printed yet and the summary, and writes the reports with the same builders the server's
 * test-report uses (docs/reference/02-running.md §7 "Functional calls").
 *
 * Exit codes as `aqa test`: 0 every call passed; 1 a validation failed; 2 the test could not run
 * (bad arguments, the server unreachable, a refused token, an unknown plan, a run the server refused,
 * no response from the target, a run stopped, interrupted or ended before every call was judged). A
 * server that stops answering while the run goes is asked again for SERVER_AWAY_MS: a server killed
 * and started again ends the run `interrupted` with what it judged (docs/adr/0016-crash-recovery.md).
 */
import { contract } from '@aqa/contract';
import { FunctionalPlanSchema, type FunctionalResult } from '@aqa/plan';
import {
  CallTally,
  callLines,
  exitCodeOf,
  type ReportFiles,
  summaryText,
  TEST_EXIT_CANNOT_RUN,
  TEST_EXIT_FAILED,
  TEST_HELP,
  TEST_EXIT_PASSED,
  writeReports,
} from './functional-test';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { RemoteClient, RemoteError, remoteTarget, sleep, type RemoteTarget } from './remote-client';
import { stopOnSignals } from './signals';

/** How often the run's status is asked while it runs. */
const STATUS_POLL_MS = 1000;
/** How often the calls judged so far are read while it runs, to print them as they come. */
const LIVE_CALLS_MS = 2000;
/** How long status reads may fail in a row (a server restarting) before the server counts as lost. */
export const SERVER_AWAY_MS = 60_000;

export interface RemoteTestRequest extends ReportFiles {
  planId: string;
  quiet: boolean;
}

/** What the terminal says while a run on the server is followed, and how it prints each judged call. */
export interface FollowedRun extends ReportFiles {
  quiet: boolean;
  /** Said on the first Ctrl-C, while the run is asked to stop. */
  stopping: string;
  /** The progress line's words before the seconds (on a terminal, unless --quiet). */
  running: string;
  lines: (call: FunctionalResult['validation_results'][number]) => string;
}

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s);

/** Asks the run's status every second until it is no longer running. */
export async function waitForEnd(
  client: RemoteClient,
  testId: string,
  onTick: (seconds: number) => void,
): Promise<void> {
  const started = Date.now();
  let awaySince: number | null = null;
  for (;;) {
    try {
      const { status } = await client.call(contract.functional.status, { params: { id: testId } });
      awaySince = null;
      if (status !== 'running') return;
    } catch (error) {
      if (awaySince === null) {
        awaySince = Date.now();
        err(
          `\naqa test: the server did not answer (${(error as Error).message}); asking again for up to ${SERVER_AWAY_MS / 1000} s\n`,
        );
      }
      if (Date.now() - awaySince > SERVER_AWAY_MS) throw error;
    }
    onTick((Date.now() - started) / 1000);
    await sleep(STATUS_POLL_MS);
  }
}

/** 0 / 1 / 2 as `aqa test` says them; calls the result no longer keeps count through its summary. */
export function remoteTestExitCode(result: FunctionalResult, tally: CallTally): number {
  const code = exitCodeOf({ status: result.status, error: result.error ?? null }, tally);
  if (code === 0 && (result.calls_omitted ?? 0) > 0 && result.summary.validation_failures > 0)
    return TEST_EXIT_FAILED;
  return code;
}

export async function remoteTest(target: RemoteTarget, request: RemoteTestRequest): Promise<number> {
  const client = new RemoteClient(target);
  const notFound = { notFound: `functional plan ${request.planId}` };
  // The run-test body is the model's plan: the saved plan is read by the model's schema (its own fields go).
  const plan = await client.read(
    FunctionalPlanSchema,
    contract.functional.getConfig,
    { params: { id: request.planId } },
    notFound,
  );
  const started = await client.call(
    contract.functional.runTest,
    { body: { ...plan, plan_id: request.planId } },
    notFound,
  );
  const testId = started.test_id;
  out(
    `${plan.test_name}: run ${testId} started on ${client.server}: ${plan.apis.length} API(s), ${plan.iterations} iteration(s), ${plan.concurrent_users} user(s)\n`,
  );
  out(`Result: ${client.server}/functional-test-result/${encodeURIComponent(testId)}\n`);

  const severalPasses = plan.iterations > 1 || plan.concurrent_users > 1;
  return followRun(client, testId, {
    ...request,
    stopping:
      '\naqa test: stopping the run on the server; the reports keep what was measured (Ctrl-C again to quit now)\n',
    running: 'running…',
    lines: (call) => callLines(call, severalPasses),
  });
}

/**
 * Follows a started run on the server to its end (Ctrl-C stops it there), prints each judged call and
 * the summary, writes the reports, and answers the exit code: for a saved plan and a recording alike.
 */
export async function followRun(client: RemoteClient, testId: string, run: FollowedRun): Promise<number> {
  const startedAt = Date.now();
  const detach = stopOnSignals(run.stopping, TEST_EXIT_CANNOT_RUN, () =>
    client
      .call(contract.functional.stop, { params: { id: testId } })
      .catch((error: unknown) => err(`aqa test: could not stop the run: ${(error as Error).message}\n`)),
  );
  const progress = process.stderr.isTTY === true && !run.quiet;
  const printed = new PrintedCalls();
  const printNew = (calls: FunctionalResult['validation_results']): void => {
    const fresh = printed.fresh(calls);
    if (fresh.length === 0) return;
    if (progress) err('\r\x1b[2K');
    for (const call of fresh) out(run.lines(call));
  };
  // One read at a time; a failed read is only a missed chance to print early (the status poll judges
  // whether the server is away, and the last read below prints whatever is left).
  const live: { reading: Promise<void> | null; lastRead: number } = { reading: null, lastRead: 0 };
  try {
    await waitForEnd(client, testId, (seconds) => {
      if (live.reading === null && Date.now() - live.lastRead >= LIVE_CALLS_MS) {
        live.lastRead = Date.now();
        live.reading = client
          .call(contract.functional.result, { params: { id: testId } })
          .then((sofar) => printNew(sofar.validation_results))
          .catch(() => undefined)
          .finally(() => (live.reading = null));
      }
      if (progress) err(`\r\x1b[2K${run.running} ${Math.round(seconds)} s`);
    });
    await live.reading;
  } finally {
    detach();
  }
  if (progress) err('\r\x1b[2K');

  const result = await client.call(contract.functional.result, { params: { id: testId } });
  printNew(result.validation_results);
  const tally = new CallTally();
  for (const call of result.validation_results) tally.add(call);
  out(summaryText(result, tally, Date.now() - startedAt));
  const written = writeReports(result, run);
  const code = remoteTestExitCode(result, tally);
  return written ? code : Math.max(code, TEST_EXIT_CANNOT_RUN);
}

/** The options of every `aqa test` that runs on a server, beside each command's own. */
const REMOTE_TEST_OPTIONS = {
  server: { type: 'string' },
  token: { type: 'string' },
  workspace: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Options = NonNullable<ParseArgsConfig['options']>;
type RemoteTestArgs<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof REMOTE_TEST_OPTIONS & T }>
>;

/**
 * `aqa test … --server URL` (a saved plan or a recording): reads the arguments, the command's own
 * options beside the common ones; answers --help; runs; says a failure in words with exit code 2.
 */
export async function remoteTestCommandWith<T extends Options>(
  argv: string[],
  own: T,
  run: (args: RemoteTestArgs<T>) => Promise<number>,
): Promise<number> {
  try {
    let args: RemoteTestArgs<T>;
    try {
      args = parseArgs({ args: argv, allowPositionals: true, options: { ...REMOTE_TEST_OPTIONS, ...own } });
    } catch (e) {
      throw new RemoteError(`${(e as Error).message} (aqa test --help lists the options)`);
    }
    // The common options' values, read before the command's own are (T is open here).
    if ((args.values as { help?: boolean }).help === true) {
      out(TEST_HELP);
      return TEST_EXIT_PASSED;
    }
    return await run(args);
  } catch (e) {
    if (!(e instanceof RemoteError)) throw e;
    err(`aqa test: ${e.message}\n`);
    return TEST_EXIT_CANNOT_RUN;
  }
}

/** `aqa test --plan ID …` (the arguments after `test`): reads them, runs, says any failure in words. */
export function remoteTestCommand(argv: string[]): Promise<number> {
  return remoteTestCommandWith(argv, { plan: { type: 'string' } }, async ({ values: v, positionals }) => {
    if (positionals.length > 0)
      throw new RemoteError(`give either a plan file or --plan ID, not both (${positionals.join(' ')})`);
    const planId = (v.plan ?? '').trim();
    if (planId === '') throw new RemoteError('--plan needs the id of a saved functional plan');
    return remoteTest(remoteTarget(v, process.env), {
      planId,
      junit: v.junit,
      json: v.json,
      html: v.html,
      quiet: v.quiet,
    });
  });
}

/**
 * Which judged calls were printed while the run went, so that each is printed once. A call has no id:
 * it is known by its user, iteration and API and by its place among that API's calls of that user's
 * iteration (an API runs again in a `postman.setNextRequest` loop), which the stored order keeps as
 * they were judged.
 */
export class PrintedCalls {
  private readonly seen = new Map<string, number>();

  /** The calls of `calls` (the run's so far, in stored order) not printed yet; they count as printed. */
  fresh(calls: FunctionalResult['validation_results']): FunctionalResult['validation_results'] {
    const occurrences = new Map<string, number>();
    const fresh: FunctionalResult['validation_results'] = [];
    for (const call of calls) {
      const key = `${call.user ?? 1}|${call.iteration ?? 1}|${call.api_name}`;
      const n = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, n);
      if (n > (this.seen.get(key) ?? 0)) {
        this.seen.set(key, n);
        fresh.push(call);
      }
    }
    return fresh;
  }
}
