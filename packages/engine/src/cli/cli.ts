/**
 * The `aqa` command line (entry: main.ts). Writes to process.stdout / process.stderr only (no console in packages).
 *
 * `aqa run` (here): exit codes 0 every threshold held (or none was set); 1 a threshold failed or an
 * abort threshold stopped the run (docs/adr/0027-load-profiles.md, "Abort criteria"); 2 the
 * test could not run (bad arguments, a plan that does not validate, a target that cannot be reached
 * before the first request, an engine failure). `aqa test` runs a functional test: functional-test.ts.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import {
  evaluateThresholds,
  parseThreshold,
  profileLengthMs,
  profileUsers,
  scopeNamesNothing,
  ThresholdSyntaxError,
  unknownScopeMessage,
  type LoadProfile,
  type PerfPlan,
  type Threshold,
  type ThresholdResult,
} from '@aqa/plan';
import { MAX_ENGINE_USERS, parseEnginePlan } from '../executor/engine-plan';
import { capacityProblems } from '../executor/capacity';
import { compilePlan, PlanCompileError } from '../executor/compile';
import { checkTargets } from '../preflight';
import { flowSummaryRow } from '../metrics/flow-rows';
import { splitUsers, startRun } from '../run';
import type { RunResult } from '../types';
import { startFunctionalRun } from '../functional/functional-run';
import type { StartFunctionalRun } from '../functional/run-types';
import { AQA_VERSION } from '../version';
import { agentCommand } from './agent-command';
import { embeddedWorkerEntry } from './embedded-workers';
import { testCommand } from './functional-test';
import { RemoteError, remoteTarget, SERVER_ENV, TOKEN_ENV, WORKSPACE_ENV } from './remote-client';
import { remoteRun } from './remote-run';
import { remoteTestCommand } from './remote-test';
import { recordingKind, recordingTestCommand } from './remote-recording';
import { junitXml, progressLine, summaryText } from './report';
import { writeOutputFile } from './output-file';
import { ProfileFlagError, profileFromFlags, profileText } from './profile-flags';
import { stopOnSignals } from './signals';

export const EXIT_OK = 0;
export const EXIT_THRESHOLD_FAILED = 1;
export const EXIT_CANNOT_RUN = 2;

const HELP = `aqa — AnybodyQA load engine

Usage:
  aqa run <plan.json> [options]         run a saved performance plan (JSON as saved or exported)
  aqa run --url URL [options]           quick test of one URL
  aqa run --plan ID --server URL [--token T] [--threshold EXPR] [--junit FILE] [--duration D] [--users N]
                                        run the saved plan ID on an AnybodyQA server and follow it live
  aqa test --plan ID --server URL [--token T] [--junit FILE]
                                        run a saved functional plan on the server
  aqa test <recording.side | recording.json | login.spec.ts> --server URL [--token T] [--base-url U]
                                        run a browser recording (Selenium IDE, Chrome's Recorder,
                                        Playwright codegen) as a UI test on the server
  aqa test <functional-plan.json | script.yml> [--junit FILE] [--json FILE] [--html FILE] [--insecure]
                                        run a functional API test or a Taurus script; exit 0 all
                                        passed, 1 a validation failed, 2 it could not run
                                        (aqa test --help for more)
  aqa agent --server URL [--token T] [--name NAME] [--cores N] [--once] [--idle-timeout SECONDS]
                                        make this machine a load agent of the server: it runs its
                                        share of runs started on agents (aqa agent --help for more)
  aqa --help | aqa --version

On a server (--plan): the server runs the plan for the user of the API token, and aqa prints a line
a second (elapsed, requests, req/s, p95, errors), then the summary, and judges the plan's own
thresholds and --threshold on the server's final figures. --server and --token may be given as
${SERVER_ENV} and ${TOKEN_ENV}, --workspace as ${WORKSPACE_ENV} (keep the token out of the command line: CI secrets go in the
environment); create a token in Settings → API tokens. The plan's id is in its address on the server.
--duration (whole seconds or more) and --users override the saved plan for this run. Ctrl-C stops the
run on the server.

Options of aqa run:
  --url URL             the URL to request (quick form)
  --method M            HTTP method for --url (default GET)
  --header "N: V"       request header for --url (repeatable)
  --body TEXT           request body for --url (POST, PUT, PATCH)
  --users N             virtual users (overrides the plan; quick form default 10). Up to 1,000,000,
                        as many as this machine holds (the plan form allows 1 to 1000); checked
                        against the open-files limit and local ports before the run starts
  --duration D          run time: 30s, 2m, 1h, 500ms, or seconds (overrides the plan; quick form default 10s)
  --stage D:N           a stage of a load profile: over D (30s, 2m), move to N users; repeatable, in
                        order, from 0 (docs/adr/0027-load-profiles.md). D:N/s moves to N iterations per
                        second instead (the arrival-rate model). Sets the users and the length: not with
                        --users or --duration. A plan file's own load_profile runs without flags
  --rate R              the arrival-rate model: R iterations started per second, whatever the response
                        times, for --duration (or the plan's); with rate stages, the rate they start from.
                        Iterations due while every user of the pool is busy are dropped, counted and shown
  --max-users N         the arrival-rate model's pool of virtual users (default: the peak rate, 10 to 1000)
  --workers N           worker threads, each a shard of the users (default: one per core)
  --insecure            accept self-signed / invalid TLS certificates
  --threshold EXPR      pass/fail criterion (repeatable), e.g. "p95<300" "p99<1s" "error_rate<1%" "rps>=500";
                        metrics: avg p50 p90 p95 p99 p99.9 min max (ms), error_rate (%), rps, requests, failed.
                        A plan file may also hold "thresholds": ["p95<300", ...]. "Login: p95<300" holds
                        the API named Login (or "GET https://…/login") to it alone
  --abort-threshold EXPR
                        stop the run when EXPR breaks (repeatable; the same expressions): judged every
                        second over the last 10 s, after the first 10 s. The run ends stopped, says why
                        and, with a load profile, the highest load that held (the breaking point), and
                        exits 1 as a failed threshold. A plan file may also hold "abort_thresholds"
  --summary-json FILE   write the summary (spec field names: total_requests, requests_per_second,
                        percentile_50/95/99/999, error_rate, ...) as JSON
  --json FILE           write the full result, with the per-second series, as JSON
  --junit FILE          write JUnit XML (one test case per threshold and per step)
  --quiet               no live progress line
  --plan ID             run the saved performance plan ID on the server (see above)
  --server URL          the AnybodyQA server, e.g. https://aqa.example.com (or ${SERVER_ENV})
  --token T             an API token of the plan's owner (or ${TOKEN_ENV})
  --workspace ID        act in this team workspace (or ${WORKSPACE_ENV}); the token's personal one
                        without it
  -h, --help            this help

Exit codes of aqa run: 0 thresholds held (or none set), 1 a threshold failed or an abort threshold
stopped the run, 2 the test could not run
(bad arguments or plan, target unreachable before the first request, engine failure; with --plan also:
the server unreachable, a refused token, an unknown plan, a run refused, failed or stopped).
Every request is counted and every latency recorded (HDR histograms, no sampling).
`;

class UsageError extends Error {}

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s);

/** "30s", "2m", "1h", "500ms", "45" (seconds) → seconds. */
export function parseDurationS(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!m)
    throw new UsageError(`--duration ${JSON.stringify(text)} is not understood: write e.g. 30s, 2m or 1h`);
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const s = unit === 'ms' ? n / 1000 : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n;
  if (!(s > 0)) throw new UsageError('--duration must be more than 0');
  return s;
}

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a whole number of at least 1, not ${JSON.stringify(v)}`);
  return n;
}

interface Loaded {
  plan: PerfPlan;
  thresholds: string[];
  durationSeconds: number | undefined;
  /** The load profile the run follows: the flags', else the plan's own; none runs the plan's users flat. */
  profile?: LoadProfile | undefined;
}

function loadPlan(file: string, users: number | undefined): Loaded {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read plan ${file}: ${(e as Error).message}`);
  }
  const input = typeof raw === 'object' && raw !== null ? { ...(raw as Record<string, unknown>) } : raw;
  let thresholds: string[] = [];
  if (typeof input === 'object' && input !== null && 'thresholds' in input) {
    const t = (input as { thresholds?: unknown }).thresholds;
    if (!Array.isArray(t) || !t.every((x) => typeof x === 'string'))
      throw new UsageError(`${file}: "thresholds" must be a list of strings like "p95<300"`);
    thresholds = t;
  }
  if (users !== undefined && typeof input === 'object' && input !== null)
    (input as Record<string, unknown>).concurrent_users = users;
  const parsed = parseEnginePlan(input);
  if (!parsed.success) {
    const lines = parsed.problems.map((i) => `  ${i.field || '(plan)'}: ${i.message}`);
    throw new UsageError(`${file} is not a valid plan:\n${lines.join('\n')}`);
  }
  return { plan: parsed.data, thresholds, durationSeconds: undefined };
}

function quickPlan(
  url: string,
  method: string,
  users: number,
  headers: string[],
  body: string | undefined,
): PerfPlan {
  const parsed = parseEnginePlan({
    name: `aqa run --url ${url}`,
    concurrent_users: users,
    duration: 1,
    urls: [
      {
        url,
        method,
        thinkTime: '0',
        payload: body ?? '',
        headers: headers.map((h) => {
          const colon = h.indexOf(':');
          if (colon <= 0) throw new UsageError(`--header ${JSON.stringify(h)}: write "Name: value"`);
          return { name: h.slice(0, colon).trim(), value: h.slice(colon + 1).trim() };
        }),
      },
    ],
  });
  if (!parsed.success) {
    const lines = parsed.problems.map((i) => `  ${i.field.replace(/^urls\[0\]\./, '--')}: ${i.message}`);
    throw new UsageError(`cannot run:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** A local functional run, on the embedded worker when this is the one-file build. */
const startLocalFunctionalRun: StartFunctionalRun = (plan, options) =>
  startFunctionalRun(plan, { ...options, workerEntry: embeddedWorkerEntry('functional') });

/** A run on a server: `--plan ID` or `--plan=ID` among the arguments. */
const isRemote = (argv: string[]): boolean => argv.some((a) => a === '--plan' || a.startsWith('--plan='));

/** Flags of `aqa run` that a run on the server cannot honour: the server runs the load. */
const LOCAL_ONLY = [
  'url',
  'workers',
  'insecure',
  'json',
  'header',
  'body',
  'stage',
  'rate',
  'max-users',
  'abort-threshold',
] as const;

/** `aqa run --plan ID`: the saved plan runs on the server (remote-run.ts). */
async function runOnServer(
  planId: string,
  positionals: string[],
  v: Partial<Record<(typeof LOCAL_ONLY)[number], unknown>> & {
    server?: string | undefined;
    token?: string | undefined;
    users?: string | undefined;
    duration?: string | undefined;
    threshold?: string[] | undefined;
    junit?: string | undefined;
    'summary-json'?: string | undefined;
    quiet: boolean;
  },
): Promise<number> {
  try {
    if (positionals.length > 0)
      throw new UsageError(`give either a plan file or --plan ID, not both (${positionals.join(' ')})`);
    const local = LOCAL_ONLY.filter((name) => v[name] !== undefined && v[name] !== false);
    if (local.length > 0)
      throw new UsageError(
        `${local.map((n) => `--${n}`).join(', ')} apply to local runs; with --plan the server runs the saved plan`,
      );
    if (planId.trim() === '') throw new UsageError('--plan needs the id of a saved performance plan');
    const users = positiveInt('users', v.users);
    let durationSeconds: number | undefined;
    if (v.duration !== undefined) {
      durationSeconds = parseDurationS(v.duration);
      if (!Number.isInteger(durationSeconds))
        throw new UsageError(
          `--duration ${JSON.stringify(v.duration)}: a run on the server takes whole seconds`,
        );
    }
    return await remoteRun(remoteTarget(v, process.env), {
      planId: planId.trim(),
      durationSeconds,
      users,
      thresholds: (v.threshold ?? []).map(parseThreshold),
      parseThreshold,
      junit: v.junit,
      summaryJson: v['summary-json'],
      quiet: v.quiet,
    });
  } catch (e) {
    if (e instanceof UsageError || e instanceof ThresholdSyntaxError || e instanceof RemoteError) {
      err(`aqa: ${e.message}\n`);
      return EXIT_CANNOT_RUN;
    }
    throw e;
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'agent') return agentCommand(argv.slice(1), embeddedWorkerEntry('load'));
  if (argv[0] === 'test') {
    if (isRemote(argv)) return remoteTestCommand(argv.slice(1));
    // A browser recording runs on the server (remote-recording.ts): this command line has no browser.
    const recording = argv
      .slice(1)
      .filter((a) => !a.startsWith('-'))
      .map(recordingKind)
      .find((kind) => kind !== undefined);
    if (recording !== undefined) return recordingTestCommand(argv.slice(1), recording);
    return testCommand(argv.slice(1), startLocalFunctionalRun);
  }
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        method: { type: 'string', default: 'GET' },
        header: { type: 'string', multiple: true },
        body: { type: 'string' },
        users: { type: 'string' },
        duration: { type: 'string' },
        stage: { type: 'string', multiple: true },
        rate: { type: 'string' },
        'max-users': { type: 'string' },
        workers: { type: 'string' },
        insecure: { type: 'boolean', default: false },
        threshold: { type: 'string', multiple: true },
        'abort-threshold': { type: 'string', multiple: true },
        'summary-json': { type: 'string' },
        json: { type: 'string' },
        junit: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        plan: { type: 'string' },
        server: { type: 'string' },
        token: { type: 'string' },
        workspace: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    err(`aqa: ${(e as Error).message}\n\n${HELP}`);
    return EXIT_CANNOT_RUN;
  }
  const v = args.values;
  if (v.help) {
    out(HELP);
    return EXIT_OK;
  }
  if (v.version) {
    out(`aqa ${AQA_VERSION}\n`);
    return EXIT_OK;
  }
  const [command, file, ...extra] = args.positionals;
  if (command !== 'run') {
    err(command === undefined ? HELP : `aqa: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
    return command === undefined ? EXIT_OK : EXIT_CANNOT_RUN;
  }

  if (v.plan !== undefined) return runOnServer(v.plan, file === undefined ? extra : [file, ...extra], v);

  let loaded: Loaded;
  let thresholds: Threshold[];
  let abortThresholds: string[];
  let workers: number | undefined;
  try {
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const users = positiveInt('users', v.users);
    if (users !== undefined && users > MAX_ENGINE_USERS)
      throw new UsageError(
        `--users ${users} is more than the engine runs on one machine (at most ${MAX_ENGINE_USERS.toLocaleString('en-US')})`,
      );
    workers = positiveInt('workers', v.workers);
    const durationSeconds = v.duration !== undefined ? parseDurationS(v.duration) : undefined;
    if (file !== undefined && v.url !== undefined)
      throw new UsageError('give either a plan file or --url, not both');
    if (file !== undefined) loaded = loadPlan(file, users);
    else if (v.url !== undefined)
      loaded = {
        plan: quickPlan(v.url, v.method, users ?? 10, v.header ?? [], v.body),
        thresholds: [],
        durationSeconds: 10,
      };
    else throw new UsageError('aqa run needs a plan file or --url URL');
    if (durationSeconds !== undefined) loaded.durationSeconds = durationSeconds;
    // The flags' profile, or the plan file's own (docs/adr/0027-load-profiles.md).
    const flagged = profileFromFlags({
      stage: v.stage,
      rate: v.rate,
      maxUsers: v['max-users'],
      users: users !== undefined,
      durationSeconds,
      defaultSeconds: loaded.durationSeconds ?? loaded.plan.duration * 60,
    });
    if (flagged !== undefined) loaded.profile = flagged;
    else if (loaded.plan.load_profile !== undefined) {
      if (users !== undefined || durationSeconds !== undefined)
        throw new UsageError(
          `${users !== undefined ? '--users' : '--duration'} cannot be given for a plan with a load profile: its stages set the users and the length (give --stage or --rate to run another shape)`,
        );
      loaded.profile = loaded.plan.load_profile;
    }
    // A profile sets the length: the quick form's 10 s does not apply.
    if (loaded.profile !== undefined) loaded.durationSeconds = undefined;
    thresholds = [...loaded.thresholds, ...(v.threshold ?? [])].map(parseThreshold);
    // The plan file's abort thresholds and the flags' (each read here, so a bad one is named at once).
    abortThresholds = [...(loaded.plan.abort_thresholds ?? []), ...(v['abort-threshold'] ?? [])];
    abortThresholds.forEach(parseThreshold);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ThresholdSyntaxError || e instanceof ProfileFlagError) {
      err(`aqa: ${e.message}\n`);
      return EXIT_CANNOT_RUN;
    }
    throw e;
  }

  const { plan, durationSeconds, profile } = loaded;
  let compiled;
  try {
    compiled = compilePlan(plan, durationSeconds);
  } catch (e) {
    if (e instanceof PlanCompileError) {
      err(`aqa: the plan cannot run:\n${e.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return EXIT_CANNOT_RUN;
    }
    throw e;
  }
  const flowNames = compiled.flowInfo.map((f) => f.name);
  const unknownScopes = thresholds.filter(
    (t) => t.scope !== undefined && scopeNamesNothing(t.scope, compiled.info, flowNames),
  );
  if (unknownScopes.length > 0) {
    err(
      `aqa: ${unknownScopes.map((t) => unknownScopeMessage(t, compiled.info, flowNames)).join('\naqa: ')}\n`,
    );
    return EXIT_CANNOT_RUN;
  }
  // With a profile, the users a run holds at once are its peak users or its pool.
  const users = profile === undefined ? compiled.users : profileUsers(profile);
  const capacity = capacityProblems(
    compiled,
    users,
    splitUsers(users, workers ?? availableParallelism()).length,
  );
  if (capacity.length > 0) {
    err(`aqa: this machine cannot hold the run:\n${capacity.map((p) => `  ${p}`).join('\n')}\n`);
    return EXIT_CANNOT_RUN;
  }
  const unreachable = (await checkTargets(compiled, { insecureTls: v.insecure })).filter((c) => !c.ok);
  if (unreachable.length > 0) {
    err(
      `aqa: cannot reach the target before the first request:\n${unreachable.map((c) => `  ${c.origin}: ${c.error}`).join('\n')}\n`,
    );
    return EXIT_CANNOT_RUN;
  }

  const totalS = (profile === undefined ? compiled.durationMs : profileLengthMs(profile)) / 1000;
  const live = !v.quiet && process.stderr.isTTY === true;
  let run;
  try {
    run = startRun(plan, {
      ...(profile === undefined ? { durationSeconds } : { loadProfile: profile }),
      workers,
      abortThresholds,
      insecureTls: v.insecure,
      workerEntry: embeddedWorkerEntry('load'),
    });
  } catch (e) {
    if (!(e instanceof PlanCompileError)) throw e;
    err(`aqa: the run cannot start:\n${e.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return EXIT_CANNOT_RUN;
  }
  stopOnSignals('\naqa: stopping (in-flight requests get up to 1 s)…\n', EXIT_CANNOT_RUN, () => run.stop());
  if (live)
    err(
      profile === undefined
        ? `aqa: ${compiled.users} users for ${totalS} s against ${plan.urls.length} step(s)…\n`
        : `aqa: ${profileText(profile)} against ${plan.urls.length} step(s)…\n`,
    );
  for await (const s of run.snapshots) if (live) err(`\r\x1b[2K${progressLine(s, totalS)}`);
  let result: RunResult;
  try {
    result = await run.result;
  } catch (e) {
    err(`\naqa: the engine failed: ${(e as Error).message}\n`);
    return EXIT_CANNOT_RUN;
  }
  if (live) err('\r\x1b[2K');
  const verdicts: ThresholdResult[] = evaluateThresholds(
    thresholds,
    result.summary,
    result.api_results,
    (result.flows ?? []).map(flowSummaryRow),
  );
  out(summaryText(result, verdicts));
  if (v['summary-json']) {
    writeOutputFile(
      v['summary-json'],
      `${JSON.stringify({ ...result.summary, status: result.status, api_results: result.api_results, errors: result.errors, thresholds: verdicts, ...abortFields(result) }, null, 2)}\n`,
    );
  }
  if (v.json)
    writeOutputFile(v.json, `${JSON.stringify({ plan: plan.name, ...result, thresholds: verdicts })}\n`);
  if (v.junit) writeOutputFile(v.junit, junitXml(result, verdicts, plan.name));
  // Workers terminated at the hard bound did not send the load planned (docs/adr/0022-linear-time-patterns.md).
  if (result.cut_short !== undefined) {
    err(`aqa: the run was cut short: ${result.cut_short}\n`);
    return EXIT_CANNOT_RUN;
  }
  // An abort threshold that broke is a failed threshold (docs/adr/0027-load-profiles.md, "Abort criteria").
  return verdicts.every((t) => t.passed) && result.aborted === undefined ? EXIT_OK : EXIT_THRESHOLD_FAILED;
}

/** The abort of a run and its breaking point, as the summary JSON carries them (absent when none). */
function abortFields(result: RunResult): Pick<RunResult, 'aborted' | 'breaking_point'> {
  return {
    ...(result.aborted === undefined ? {} : { aborted: result.aborted }),
    ...(result.breaking_point === undefined ? {} : { breaking_point: result.breaking_point }),
  };
}
