/**
 * `aqa test <functional-plan.json | script.yml>`: runs a functional API test from the command line for
 * CI (docs/design.md §9), printing each call as it is judged and writing JUnit, JSON and HTML reports.
 * A script plan, or a Taurus YAML file itself, runs the calls its script makes, read by the same
 * function as the server's (docs/reference/02-running.md §7 "Script calls").
 *
 * Exit codes: 0 every call passed; 1 a validation failed; 2 the test could not run (bad arguments, an
 * unreadable file, a plan that does not validate, nothing came back from the target, a stop before
 * every call was judged, a runner failure).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  describeIssues,
  FUNCTIONAL_TEST_ID_PREFIX,
  kindOf,
  runsInBrowser,
  safeMigrateFunctionalPlan,
  type CallResult,
  type FunctionalPlan,
  type FunctionalResult,
  iterationDataProblem,
  iterationRows,
} from '@aqa/plan';
import { ImportError, postmanToFunctionalPlan, type TaurusWarning } from '@aqa/converters';
import {
  callName,
  failedRuleLines,
  functionalHtmlReport,
  functionalJsonReport,
  functionalJunitReport,
  msText,
} from '../functional/report';
import type { FunctionalRunOutcome, StartFunctionalRun } from '../functional/run-types';
import { readScript, SCRIPT_MESSAGES, ScriptNotRunnable, scriptRunPlan } from '../functional/script-plan';
import { writeOutputFile } from './output-file';
import { onlyFolder, PostmanFileError, readDataFile, readVariablesFile } from './postman-files';
import { stopOnSignals } from './signals';

export const TEST_EXIT_PASSED = 0;
export const TEST_EXIT_FAILED = 1;
export const TEST_EXIT_CANNOT_RUN = 2;

export const TEST_HELP = `aqa test — run a functional API test

Usage:
  aqa test <functional-plan.json | collection.postman_collection.json>
           [--environment FILE] [--globals FILE] [--data FILE]
           [--folder NAME] [--junit FILE] [--json FILE] [--html FILE] [--insecure]
  aqa test <script.yml> [--junit FILE] [--json FILE] [--html FILE] [--insecure]
  aqa test --plan ID --server URL [--token T] [--junit FILE] [--json FILE] [--html FILE] [--quiet]
  aqa test <recording.side | recording.json | login.spec.ts> --server URL [--token T]
           [--base-url URL] [--junit FILE] [--json FILE] [--html FILE] [--quiet]

A JSON file holds a functional plan: as the API Test or Script screen saves it, or as
GET /api/functional/get-test-config/{id} answers it (id, user_email and the other saved fields are
ignored), or a Postman collection (v2.0 or v2.1), run as the API screen imports it: its tests as
named rules and captures, the rest of its scripts in a sandbox, its variables, folders, cookie jar and
followed redirects (docs/adr/0029-postman-collections.md). A script plan (source script_input) runs
the calls of its script_content with the plan's load settings, Global Validation Rules and
data_files, as the server runs it.
A .yml/.yaml file (or any file that is not JSON) is a Taurus script, run with its own execution
settings; its data-sources' CSV files are read from disk relative to the script's folder. What the
script holds that cannot run is printed first, with its YAML path, line and what happens to it.
Every API runs in order for the iterations and users, and every validation rule is judged; each call
is printed as it is judged, then a summary. {{name}} is looked up in the captured values, the data
row, the environment, the collection variables and the globals, in that order; Postman's dynamic
variables ({{$guid}}, {{$randomInt}}, …) are fresh at each use (docs/adr/0029-postman-collections.md).

With --plan, the server runs the saved functional plan ID (its id is in the plan's address) for the
user of the API token; aqa asks its status every second, then prints each call and writes the
reports. --server and --token may be given as AQA_SERVER and AQA_TOKEN instead (keep the token out
of the command line: CI secrets go in the environment). Create a token in Settings → API tokens.

A browser recording — a Selenium IDE project (.side), a Chrome DevTools Recorder export (JSON) or a
Playwright codegen script — is a UI test, which runs in a browser: aqa has none, so it runs on the
server. The file is uploaded as the UI screen's upload is, saved as the UI plan of the recording's
name (that plan is updated when it exists), run and followed to its end; each recorded test is
printed with pass or fail, and each command by the recorder's own name for it. --base-url replaces
a Selenium IDE project's url. Without a server it exits 2.

Options:
  --plan ID       run the saved functional plan ID on the server (with --server and a token)
  --server URL    the AnybodyQA server, e.g. https://aqa.example.com (or AQA_SERVER)
  --token T       an API token of the plan's owner (or AQA_TOKEN)
  --workspace ID  act in this team workspace (or AQA_WORKSPACE); the token's personal one without it
  --quiet         no "running…" line while a --plan run goes
  --environment FILE  a Postman environment export ({name, values: [{key, value, enabled}]}): its
                  enabled values are the plan's environment, in place of the one it holds
  --globals FILE  a Postman globals export (the same shape): the plan's globals
  --data FILE     a data file as newman run -d: CSV with a header row (.csv) or a JSON array of
                  objects (.json); one iteration per row, each row's values as variables
  --folder NAME   run only the APIs in folder NAME or under it ("Orders" runs "Orders / Admin" too)
  --junit FILE    write JUnit XML as Newman's reporter does: a test suite per call, a test case per
                  rule of the call, failures with the rule's expected and actual value, calls with
                  no response as errors
  --json FILE     write the whole result as JSON (the server's functional result shape)
  --html FILE     write the result as one self-contained HTML page
  --insecure      accept self-signed / invalid TLS certificates
  -h, --help      this help

Ctrl-C stops the run (on the server too), keeps what was measured and still writes the reports.
With --plan, a server that does not answer while the run goes is asked again for up to 60 s (a
restart); a run it was running when it stopped ends "interrupted" with the calls judged before.
Exit codes: 0 every call passed, 1 a validation failed, 2 the test could not run (unreadable file,
invalid plan, a script with nothing runnable or a missing data file, no response from the target,
stopped before the end, runner failure; with --plan also: the server unreachable, a refused token,
an unknown plan, a run the server refused, a run interrupted by the server stopping).
`;

class UsageError extends Error {}

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s);

/** What `aqa test` runs: the plan, and the script's warnings when it came from a script. */
export interface TestInput {
  plan: FunctionalPlan;
  warnings: TaurusWarning[];
  /** For a Postman collection: how its tests came over, said before the run. */
  note?: string;
}

/** A Postman collection (v2.0 / v2.1): `info` with Postman's schema, or `info` beside an `item` list. */
function isPostmanCollection(raw: object): boolean {
  const info = (raw as { info?: { schema?: unknown } }).info;
  if (typeof info !== 'object' || info === null) return false;
  return (
    (typeof info.schema === 'string' && info.schema.includes('getpostman.com')) ||
    Array.isArray((raw as { item?: unknown }).item)
  );
}

/**
 * A Postman collection run as its imported plan (docs/adr/0029-postman-collections.md): the same
 * reading as the import screen's, so a collection runs here as it runs in the browser.
 */
function collectionPlan(file: string, text: string): TestInput {
  let imported;
  try {
    imported = postmanToFunctionalPlan({ name: basename(file), text });
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(`${file}: ${e.message}`);
    throw e;
  }
  const { tests, rules, scripts, left_out: leftOut } = imported.postman;
  const left = leftOut.map((l) => `\n  left out: ${l.request} line ${l.line}: ${l.reason}`).join('');
  return {
    plan: validPlan(file, imported.plan),
    warnings: [],
    note: `${file}: a Postman collection — ${tests} tests: ${rules} rules, ${scripts} in scripts, ${leftOut.length} left out${left}\n`,
  };
}

function fileText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
}

/** Where in the script: its YAML path, and its line when known. */
function place(where: { path: string; line?: number }): string {
  return where.line === undefined ? where.path : `${where.path} (line ${where.line})`;
}

/** A refused script as the terminal says it: every reason on its own line, with its path and line. */
function refusal(file: string, e: ScriptNotRunnable): UsageError {
  if (e.warnings.length === 0) return new UsageError(`${file}: ${e.message}`);
  const reasons = e.warnings.map((w) => `  ${place(w)}: ${w.message}`);
  return new UsageError(`${file}: ${SCRIPT_MESSAGES.notRunnable}:\n${reasons.join('\n')}`);
}

function validPlan(file: string, raw: unknown): FunctionalPlan {
  const parsed = safeMigrateFunctionalPlan(raw);
  if (!parsed.success) {
    const lines = describeIssues(parsed.error).map((p) => `  ${p.field || '(plan)'}: ${p.message}`);
    throw new UsageError(`${file} is not a valid functional plan:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The calls a script plan runs, read as the server reads them; a refusal names every reason. */
function scriptPlan(file: string, plan: FunctionalPlan): TestInput {
  try {
    return scriptRunPlan(plan);
  } catch (e) {
    if (e instanceof ScriptNotRunnable) throw refusal(file, e);
    throw e;
  }
}

/**
 * A Taurus YAML file as a script plan: its own execution settings, and its data sources' files read
 * from disk relative to the script's folder (a missing one is named).
 */
export function readTaurusFile(file: string, text: string = fileText(file, 'script')): TestInput {
  let read;
  try {
    read = readScript(text);
  } catch (e) {
    if (e instanceof ScriptNotRunnable) throw refusal(file, e);
    throw e;
  }
  // What the script's execution says does not depend on its data files: only its data sources do.
  const { execution, data_sources: sources } = read;
  const dataFiles: Record<string, string> = {};
  for (const source of sources) {
    const onDisk = resolve(dirname(file), source.path);
    try {
      dataFiles[source.path] = readFileSync(onDisk, 'utf8');
    } catch (e) {
      const at = place(source.source);
      throw new UsageError(
        `${file}: the data source ${source.path} at ${at} cannot be read from ${onDisk}: ${(e as Error).message}`,
      );
    }
  }
  const plan = validPlan(file, {
    ...execution,
    test_name: execution.test_name === '' ? basename(file, extname(file)) : execution.test_name,
    source: 'script_input',
    test_framework: 'taurus',
    script_content: text,
    ...(sources.length === 0 ? {} : { data_files: dataFiles }),
  });
  return scriptPlan(file, plan);
}

const isJsonName = (file: string): boolean => extname(file).toLowerCase() === '.json';
const isYamlName = (file: string): boolean => ['.yml', '.yaml'].includes(extname(file).toLowerCase());

/**
 * What `file` asks to run: a Taurus script for .yml/.yaml, a plan for .json, and for any other name a
 * plan when it reads as JSON, else a script.
 */
export function readTestInput(file: string): TestInput {
  if (isYamlName(file)) return readTaurusFile(file);
  if (isJsonName(file)) return readFunctionalPlan(file);
  const text = fileText(file, 'file');
  try {
    JSON.parse(text);
  } catch {
    return readTaurusFile(file, text);
  }
  return readFunctionalPlan(file);
}

/** The plan in `file`, read by the model; every problem named with its field. */
export function readFunctionalPlan(file: string): TestInput {
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`cannot read plan ${file}: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError(`${file} does not hold a functional plan (a JSON object with test_name and apis)`);
  }
  if (isPostmanCollection(raw)) return collectionPlan(file, text);
  const plan = validPlan(file, raw);
  // The runner sends HTTP calls; a UI test (a Selenium script too) needs a browser.
  if (runsInBrowser(plan)) {
    throw new UsageError(`${file} is a UI test; aqa test runs API and script tests`);
  }
  if (kindOf(plan) === 'script') return scriptPlan(file, plan);
  return { plan, warnings: [] };
}

/** A warning the reader gave, as printed before the run: where, what, and what happens to it. */
export function warningLine(w: TaurusWarning): string {
  return `aqa test: warning: ${place(w)}: ${w.message} [${w.effect}]\n`;
}

/** One judged call as the terminal shows it: ✓/✗, name, status, time, and each failed rule. */
export function callLines(call: CallResult, severalPasses: boolean): string {
  const status = call.status_code === null ? (call.error ?? 'no response') : String(call.status_code);
  const head = `${call.success ? '✓' : '✗'} ${callName(call, severalPasses)}  ${status}  ${msText(call.response_time)}`;
  if (call.success) return `${head}\n`;
  const rules = call.validation_details.filter((d) => !d.passed).flatMap(failedRuleLines);
  if (rules.length === 0 && call.error) rules.push(call.error);
  return `${[head, ...rules.map((line) => `    ${line}`)].join('\n')}\n`;
}

/** The run's result in the server's shape, so the reports read the same as a download from the server. */
export function resultOf(
  plan: FunctionalPlan,
  outcome: FunctionalRunOutcome,
  testId: string,
): FunctionalResult {
  return {
    test_id: testId,
    plan_id: plan.id ?? null,
    test_name: plan.test_name,
    description: plan.description,
    status: outcome.status,
    test_type: plan.test_type,
    source: plan.source,
    start_time: outcome.start_time,
    end_time: outcome.end_time,
    error: outcome.error,
    summary: outcome.summary,
    validation_results: outcome.validation_results,
    validation_results_total: outcome.summary.total_requests,
    calls_omitted: outcome.calls_omitted,
    api_results: outcome.api_results,
    timeline_data: outcome.timeline_data,
  };
}

/** Every judged call counted as it comes, so the exit code holds for runs longer than the result keeps. */
export class CallTally {
  calls = 0;
  passed = 0;
  /** Failed although the target answered: a validation failed. */
  failedWithResponse = 0;
  noResponse = 0;

  add(call: CallResult): void {
    this.calls++;
    if (call.success) this.passed++;
    else if (call.status_code === null) this.noResponse++;
    else this.failedWithResponse++;
  }
}

/** 0 all passed; 1 a validation failed; 2 nothing came back, or the run ended short with no validation failed. */
export function exitCodeOf(outcome: { status: string; error: string | null }, tally: CallTally): number {
  if (tally.failedWithResponse > 0) return TEST_EXIT_FAILED;
  if (tally.calls === tally.noResponse) return TEST_EXIT_CANNOT_RUN;
  // Stopped, interrupted by a server that stopped (--plan), or ended early by the test duration or a
  // runner failure: not every call was judged.
  if (outcome.status === 'stopped' || outcome.status === 'interrupted' || outcome.error !== null)
    return TEST_EXIT_CANNOT_RUN;
  return tally.passed === tally.calls ? TEST_EXIT_PASSED : TEST_EXIT_FAILED;
}

/** The closing lines of a functional run: status, calls passed and failed, requests, and why it ended early. */
export function summaryText(result: FunctionalResult, tally: CallTally, wallMs: number): string {
  const name = result.test_name === '' ? 'Unnamed Test' : result.test_name;
  const lines = [
    '',
    `${name}: ${result.status} in ${msText(wallMs)}`,
    `  calls ${tally.calls}: ${tally.passed} passed, ${tally.calls - tally.passed} failed` +
      (tally.noResponse > 0 ? ` (${tally.noResponse} with no response)` : ''),
    `  requests ${result.summary.total_requests}: ${result.summary.successful_requests} successful, ${result.summary.failed_requests} failed; validation failures ${result.summary.validation_failures}`,
  ];
  if (result.calls_omitted) {
    lines.push(`  the reports keep the first ${result.validation_results.length} calls and count the rest`);
  }
  if (result.error) lines.push(`  ${result.error}`);
  return `${lines.join('\n')}\n`;
}

/** Writes a report and says where; false (said on stderr) when it could not be written. */
function writeReport(file: string, content: string, what: string): boolean {
  if (!writeOutputFile(file, content)) return false;
  out(`${what} written to ${file}\n`);
  return true;
}

/** The report files `aqa test` was asked for (--junit, --json, --html). */
export interface ReportFiles {
  junit?: string | undefined;
  json?: string | undefined;
  html?: string | undefined;
}

/** Writes every report asked for; false when one of them could not be written (the others still are). */
export function writeReports(result: FunctionalResult, files: ReportFiles): boolean {
  let written = true;
  if (files.junit) written = writeReport(files.junit, functionalJunitReport(result), 'JUnit XML') && written;
  if (files.json) written = writeReport(files.json, functionalJsonReport(result), 'JSON') && written;
  if (files.html) written = writeReport(files.html, functionalHtmlReport(result), 'HTML') && written;
  return written;
}

/**
 * The plan with what --environment, --globals, --data and --folder say; a plan's own data file that
 * does not read is refused here too, before anything runs.
 */
function withPostmanFiles(
  read: FunctionalPlan,
  file: string,
  v: { environment?: string; globals?: string; data?: string; folder?: string },
): FunctionalPlan {
  let plan = read;
  if (v.environment !== undefined)
    plan = { ...plan, environment: readVariablesFile(v.environment, 'environment') };
  if (v.globals !== undefined) plan = { ...plan, globals: readVariablesFile(v.globals, 'globals').values };
  if (v.data !== undefined) plan = { ...plan, iteration_data: readDataFile(v.data) };
  const dataProblem = iterationDataProblem(plan.iteration_data);
  if (dataProblem !== undefined) throw new UsageError(`${file}: ${dataProblem}`);
  if (v.folder !== undefined) plan = onlyFolder(plan, v.folder, file);
  return plan;
}

export async function testCommand(argv: string[], start: StartFunctionalRun): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        junit: { type: 'string' },
        json: { type: 'string' },
        html: { type: 'string' },
        insecure: { type: 'boolean', default: false },
        environment: { type: 'string' },
        globals: { type: 'string' },
        data: { type: 'string' },
        folder: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    err(`aqa test: ${(e as Error).message}\n\n${TEST_HELP}`);
    return TEST_EXIT_CANNOT_RUN;
  }
  const v = args.values;
  if (v.help) {
    out(TEST_HELP);
    return TEST_EXIT_PASSED;
  }
  let plan: FunctionalPlan;
  try {
    const [file, ...extra] = args.positionals;
    if (file === undefined)
      throw new UsageError('aqa test needs a functional plan, a Postman collection or a Taurus script file');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const input = readTestInput(file);
    plan = withPostmanFiles(input.plan, file, v);
    if (input.note !== undefined) err(input.note);
    for (const w of input.warnings) err(warningLine(w));
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof PostmanFileError)) throw e;
    err(`aqa test: ${e.message}\n`);
    return TEST_EXIT_CANNOT_RUN;
  }

  // With a data file, one iteration per row (as newman run -d).
  const iterations =
    plan.iteration_data === undefined ? plan.iterations : iterationRows(plan.iteration_data).length;
  const severalPasses = iterations > 1 || plan.concurrent_users > 1;
  const started = Date.now();
  out(
    `${plan.test_name}: ${plan.apis.length} API(s), ${iterations} iteration(s), ${plan.concurrent_users} user(s)\n`,
  );
  const tally = new CallTally();
  const handle = start(plan, {
    insecureTls: v.insecure,
    onCall: (call) => {
      tally.add(call);
      out(callLines(call, severalPasses));
    },
  });
  const detachSignals = stopOnSignals(
    '\naqa test: stopping; the reports keep what was measured (Ctrl-C again to quit now)\n',
    TEST_EXIT_CANNOT_RUN,
    () => handle.stop(),
  );
  let outcome: FunctionalRunOutcome;
  try {
    outcome = await handle.result;
  } catch (e) {
    err(`aqa test: the runner failed: ${(e as Error).message}\n`);
    return TEST_EXIT_CANNOT_RUN;
  } finally {
    detachSignals();
  }
  const result = resultOf(plan, outcome, `${FUNCTIONAL_TEST_ID_PREFIX}${randomUUID()}`);
  out(summaryText(result, tally, Date.now() - started));
  const written = writeReports(result, v);
  const code = exitCodeOf(outcome, tally);
  // A report CI reads that was not written must not pass silently.
  return written ? code : Math.max(code, TEST_EXIT_CANNOT_RUN);
}
