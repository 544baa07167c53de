import type { CallResult, FunctionalResult } from '@aqa/plan';
import { callName, failedRuleLines, failedRules, hasNoResponse, hasSeveralPasses } from './calls';
import { evidenceText } from './evidence';
import { xmlAttribute, xmlText } from './text';

/*
 * A functional run as JUnit XML, the shape Jenkins, GitLab and GitHub test reporters read
 * (docs/design.md §9): one <testsuite> for the run, one <testcase> per API per iteration and user.
 * A call whose rules failed is a <failure> naming each rule's expected, actual and message; a call
 * with no response (a refused connection, a time-out) is an <error>; a run that could not run or
 * ended early adds a "(run)" case with its reason as an <error>, so CI never reads it as passed; failures
 * among calls a long run did not keep are one more failed case.
 */

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

interface Case {
  xml: string;
  failed: boolean;
  error: boolean;
}

function callCase(call: CallResult, classname: string, severalPasses: boolean): Case {
  const open = `    <testcase classname="${xmlAttribute(classname)}" name="${xmlAttribute(callName(call, severalPasses))}" time="${seconds(call.response_time)}"`;
  if (call.success) return { xml: `${open}/>`, failed: false, error: false };
  const failed = failedRules(call);
  const details = failed.flatMap(failedRuleLines).join('\n');
  const evidence = call.evidence
    ? `\n      <system-out>${xmlText(evidenceText(call.evidence))}</system-out>`
    : '';
  if (hasNoResponse(call)) {
    const reason = call.error ?? 'no response came back';
    return {
      xml: `${open}>\n      <error message="${xmlAttribute(reason)}" type="no response">${xmlText(details)}</error>${evidence}\n    </testcase>`,
      failed: false,
      error: true,
    };
  }
  const first = failed[0];
  const message =
    first === undefined
      ? (call.error ?? 'the call failed')
      : failed.length === 1
        ? first.message
        : `${failed.length} rules failed; first: ${first.message}`;
  return {
    xml: `${open}>\n      <failure message="${xmlAttribute(message)}" type="validation">${xmlText(details || message)}</failure>${evidence}\n    </testcase>`,
    failed: true,
    error: false,
  };
}

function runSeconds(result: FunctionalResult): string {
  const start = Date.parse(result.start_time ?? '');
  const end = Date.parse(result.end_time ?? '');
  if (Number.isFinite(start) && Number.isFinite(end)) return seconds(end - start);
  return seconds(result.validation_results.reduce((sum, call) => sum + call.response_time, 0));
}

/** The JUnit XML text of a functional run. */
export function functionalJunitReport(result: FunctionalResult): string {
  const classname = result.test_name === '' ? 'Unnamed Test' : result.test_name;
  const severalPasses = hasSeveralPasses(result);
  const cases = result.validation_results.map((call) => callCase(call, classname, severalPasses));
  // A long run keeps its first calls; failures among the rest must still fail the suite.
  const failedKept = result.validation_results.filter((call) => !call.success).length;
  const failedOmitted = result.summary.failed_requests - failedKept;
  if ((result.calls_omitted ?? 0) > 0 && failedOmitted > 0) {
    const message = `${failedOmitted} of the ${result.calls_omitted ?? 0} calls after the first ${result.validation_results.length} failed; this report keeps the first ${result.validation_results.length}`;
    cases.push({
      xml: `    <testcase classname="${xmlAttribute(classname)}" name="(calls not kept)" time="0.000">\n      <failure message="${xmlAttribute(message)}" type="validation"/>\n    </testcase>`,
      failed: true,
      error: false,
    });
  }
  if (result.error) {
    cases.push({
      xml: `    <testcase classname="${xmlAttribute(classname)}" name="(run)" time="${runSeconds(result)}">\n      <error message="${xmlAttribute(result.error)}" type="run ${xmlAttribute(result.status)}"/>\n    </testcase>`,
      failed: false,
      error: true,
    });
  }
  const tests = cases.length;
  const failures = cases.filter((c) => c.failed).length;
  const errors = cases.filter((c) => c.error).length;
  const time = runSeconds(result);
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
  const timestamp = result.start_time ? ` timestamp="${xmlAttribute(result.start_time)}"` : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="aqa test" tests="${tests}" failures="${failures}" errors="${errors}" time="${time}">\n` +
    `  <testsuite name="${xmlAttribute(classname)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"${timestamp}>\n` +
    `    <properties>\n${properties.join('\n')}\n    </properties>\n` +
    cases.map((c) => `${c.xml}\n`).join('') +
    `  </testsuite>\n` +
    `</testsuites>\n`
  );
}
