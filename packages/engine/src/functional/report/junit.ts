import type { CallResult, FunctionalResult, ValidationDetail } from '@aqa/plan';
import { callName, failedRuleLines, hasNoResponse, hasSeveralPasses, quote } from './calls';
import { evidenceText } from './evidence';
import { xmlAttribute, xmlText } from './text';

/*
 * A functional run as JUnit XML, the shape Jenkins, GitLab and GitHub test reporters read, laid out as
 * Newman's JUnit reporter lays out a collection run (docs/adr/0029-postman-collections.md): one
 * <testsuite> per call (the API, and its iteration and user when there were several), one <testcase>
 * per assertion of the call — each rule, named by its name or else its type and expected value, and
 * the consecutive rules one Postman test became as one case (`assertions`). A failed rule is a
 * <failure> with its expected, actual and message (each failed rule's, for a case of several); a call with no response (a refused
 * connection, a time-out) makes each rule an <error>. A last "(run)" suite keeps the run's properties
 * and, when the run could not run or ended early, a "(run)" case with its reason as an <error>, so CI
 * never reads it as passed; failures among calls a long run did not keep are one more failed case.
 * A UI step that runs actions (a recorded test) is one <testcase> of one suite of them (uiCase).
 */

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

interface Case {
  xml: string;
  failed: boolean;
  error: boolean;
}

interface Suite {
  name: string;
  cases: Case[];
  time: string;
  extra?: string;
}

/** An assertion's name: the rule's own, else its type and expected value (as Newman names a test). */
export function assertionName(detail: ValidationDetail): string {
  if (detail.name) return detail.name;
  return detail.type === 'schema' ? 'schema' : `${detail.type} ${quote(detail.expected, 200)}`;
}

/**
 * A call's assertions, each the details of one test case: a rule alone, or the consecutive rules that
 * share a name of their own — the importer turns a Postman `pm.test` with several expectations into
 * several rules of the test's name, and Newman counts that test once, failed when any expectation
 * failed (docs/adr/0029-postman-collections.md "Parity with Newman"). A script's pm.test results are
 * one assertion each, as in Newman, even when two share a name.
 */
export function assertions(details: readonly ValidationDetail[]): ValidationDetail[][] {
  const groups: ValidationDetail[][] = [];
  for (const detail of details) {
    const last = groups.at(-1);
    const first = last?.[0];
    const sameTest =
      first !== undefined &&
      detail.type !== 'script' &&
      first.type !== 'script' &&
      detail.name !== undefined &&
      detail.name !== '' &&
      detail.name === first.name;
    if (sameTest) last!.push(detail);
    else groups.push([detail]);
  }
  return groups;
}

function testcase(classname: string, name: string, time: string, body = ''): string {
  const open = `    <testcase classname="${xmlAttribute(classname)}" name="${xmlAttribute(name)}" time="${time}"`;
  return body === '' ? `${open}/>` : `${open}>\n${body}\n    </testcase>`;
}

function callSuite(call: CallResult, testName: string, severalPasses: boolean): Suite {
  const classname = `${testName}.${call.api_name === '' ? `${call.method} ${call.url}` : call.api_name}`;
  const time = seconds(call.response_time);
  const noResponse = hasNoResponse(call);
  // The evidence of a failed call goes with its first failed case.
  let evidence = call.evidence
    ? `\n      <system-out>${xmlText(evidenceText(call.evidence))}</system-out>`
    : '';
  const takeEvidence = (): string => {
    const kept = evidence;
    evidence = '';
    return kept;
  };
  const cases: Case[] = assertions(call.validation_details).map((group) => {
    const name = assertionName(group[0]!);
    const failed = group.filter((d) => !d.passed);
    if (failed.length === 0) return { xml: testcase(classname, name, time), failed: false, error: false };
    const lines = xmlText(failed.flatMap((d) => failedRuleLines(d)).join('\n'));
    if (noResponse) {
      const reason = call.error ?? 'no response came back';
      return {
        xml: testcase(
          classname,
          name,
          time,
          `      <error message="${xmlAttribute(reason)}" type="no response">${lines}</error>${takeEvidence()}`,
        ),
        failed: false,
        error: true,
      };
    }
    return {
      xml: testcase(
        classname,
        name,
        time,
        `      <failure message="${xmlAttribute(failed[0]!.message)}" type="AssertionFailure">${lines}</failure>${takeEvidence()}`,
      ),
      failed: true,
      error: false,
    };
  });
  // A call that failed with every rule passed (a capture found nothing), or that had no rule at all.
  if (!call.success && !cases.some((c) => c.failed || c.error)) {
    const message = call.error ?? 'the call failed';
    const kind = noResponse ? 'error' : 'failure';
    cases.push({
      xml: testcase(
        classname,
        '(call)',
        time,
        `      <${kind} message="${xmlAttribute(message)}" type="${noResponse ? 'no response' : 'call'}"/>${takeEvidence()}`,
      ),
      failed: !noResponse,
      error: noResponse,
    });
  } else if (cases.length === 0) {
    cases.push({ xml: testcase(classname, '(call)', time), failed: false, error: false });
  }
  return { name: callName(call, severalPasses), cases, time };
}

function runSeconds(result: FunctionalResult): string {
  const start = Date.parse(result.start_time ?? '');
  const end = Date.parse(result.end_time ?? '');
  if (Number.isFinite(start) && Number.isFinite(end)) return seconds(end - start);
  return seconds(result.validation_results.reduce((sum, call) => sum + call.response_time, 0));
}

/**
 * A UI step (a page, or a recorded test: docs/recorded-ui-tests.md "Results") as one case: its failure
 * names the command that failed, with each failed action's and check's expected and actual values.
 */
function uiCase(call: CallResult, testName: string, severalPasses: boolean): Case {
  const name = callName(call, severalPasses);
  const time = seconds(call.response_time);
  if (call.success) return { xml: testcase(testName, name, time), failed: false, error: false };
  const actions = (call.ui?.actions ?? []).filter((a) => !a.passed);
  const checks = call.validation_details.filter((d) => !d.passed);
  const lines = [
    ...actions.flatMap((a) => [
      `${a.at === undefined ? '' : `${a.at} `}\`${a.action}\`${a.line === undefined ? '' : ` (line ${a.line})`}: ${a.message}`,
      ...(a.expected === undefined
        ? []
        : [
            `  expected: ${quote(a.expected)}`,
            `  actual:   ${a.actual == null ? '(none)' : quote(a.actual)}`,
          ]),
    ]),
    // A page step's checks; a script's assertions are its actions, said above.
    ...(actions.length === 0 ? checks.flatMap(failedRuleLines) : []),
  ];
  const message = call.error ?? actions[0]?.message ?? checks[0]?.message ?? 'the step failed';
  // A step that failed without a failed action or check did not run to the end (a page that did not load).
  const failed = actions.length > 0 || checks.length > 0;
  const kind = failed ? 'failure' : 'error';
  const type = failed ? 'AssertionFailure' : 'step';
  const shots = call.ui?.screenshots.filter((s) => s.failure).map((s) => s.id) ?? [];
  const out =
    shots.length === 0 ? '' : `\n      <system-out>screenshots: ${xmlText(shots.join(', '))}</system-out>`;
  return {
    xml: testcase(
      testName,
      name,
      time,
      `      <${kind} message="${xmlAttribute(message)}" type="${type}">${xmlText(lines.join('\n'))}</${kind}>${out}`,
    ),
    failed,
    error: !failed,
  };
}

/** A UI step that ran actions, or one whose page never opened for them (it judged nothing). */
function isActionStep(call: CallResult): boolean {
  return call.ui !== undefined && (call.ui.actions.length > 0 || call.validation_details.length === 0);
}

/** The JUnit XML text of a functional run. */
export function functionalJunitReport(result: FunctionalResult): string {
  const testName = result.test_name === '' ? 'Unnamed Test' : result.test_name;
  const severalPasses = hasSeveralPasses(result);
  // The steps that run actions (a recorded test, a script's step) are one suite, one case per step:
  // not one case per check. A page step keeps a case per rule, as an API call.
  const uiCalls = result.validation_results.filter(isActionStep);
  const suites = result.validation_results
    .filter((call) => !isActionStep(call))
    .map((call) => callSuite(call, testName, severalPasses));
  if (uiCalls.length > 0) {
    suites.unshift({
      name: testName,
      cases: uiCalls.map((call) => uiCase(call, testName, severalPasses)),
      time: seconds(uiCalls.reduce((sum, call) => sum + call.response_time, 0)),
    });
  }
  const runCases: Case[] = [];
  const runClass = `${testName}.(run)`;
  // A long run keeps its first calls; failures among the rest must still fail the report.
  const failedKept = result.validation_results.filter((call) => !call.success).length;
  const failedOmitted = result.summary.failed_requests - failedKept;
  if ((result.calls_omitted ?? 0) > 0 && failedOmitted > 0) {
    const message = `${failedOmitted} of the ${result.calls_omitted ?? 0} calls after the first ${result.validation_results.length} failed; this report keeps the first ${result.validation_results.length}`;
    runCases.push({
      xml: testcase(
        runClass,
        '(calls not kept)',
        '0.000',
        `      <failure message="${xmlAttribute(message)}" type="validation"/>`,
      ),
      failed: true,
      error: false,
    });
  }
  if (result.error) {
    runCases.push({
      xml: testcase(
        runClass,
        '(run)',
        runSeconds(result),
        `      <error message="${xmlAttribute(result.error)}" type="run ${xmlAttribute(result.status)}"/>`,
      ),
      failed: false,
      error: true,
    });
  }
  const property = (name: string, value: string | number): string =>
    `      <property name="${name}" value="${xmlAttribute(String(value))}"/>`;
  const properties = [
    property('test_id', result.test_id),
    property('status', result.status),
    property('total_requests', result.summary.total_requests),
    property('successful_requests', result.summary.successful_requests),
    property('failed_requests', result.summary.failed_requests),
    property('validation_failures', result.summary.validation_failures),
    ...(result.calls_omitted ? [property('calls_omitted', result.calls_omitted)] : []),
  ];
  suites.push({
    name: `${testName} (run)`,
    cases: runCases,
    time: runSeconds(result),
    extra: `    <properties>\n${properties.join('\n')}\n    </properties>\n`,
  });
  const all = suites.flatMap((suite) => suite.cases);
  const count = (cases: Case[]) => ({
    tests: cases.length,
    failures: cases.filter((c) => c.failed).length,
    errors: cases.filter((c) => c.error).length,
  });
  const total = count(all);
  const timestamp = result.start_time ? ` timestamp="${xmlAttribute(result.start_time)}"` : '';
  const suiteXml = (suite: Suite, id: number): string => {
    const n = count(suite.cases);
    return (
      `  <testsuite name="${xmlAttribute(suite.name)}" id="${id}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="0" time="${suite.time}"${timestamp}>\n` +
      (suite.extra ?? '') +
      suite.cases.map((c) => `${c.xml}\n`).join('') +
      `  </testsuite>\n`
    );
  };
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="${xmlAttribute(testName)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" time="${runSeconds(result)}">\n` +
    suites.map(suiteXml).join('') +
    `</testsuites>\n`
  );
}
