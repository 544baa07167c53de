/*
 * The English of every phrase (docs/adr/0025-phrases.md): the text the API, the CLI, JUnit and the reports
 * keep, and the web app's English. The web app's Korean dictionary is typed by these codes, so a code
 * added here without its Korean does not compile. Template syntax: phrase.ts `phraseText`.
 */

/** A text with no code of its own (a tool's output, an exception), shown as written in every language. */
const RAW = { raw: '{text}' } as const;

/** Judgements of a functional API rule (packages/engine/src/call/judge.ts, schema-judge.ts). */
const JUDGE = {
  'judge.status.passed': 'status {actual} as expected',
  'judge.status.failed': 'expected status {expected}, got {actual}',
  'judge.status.notPassed': 'status {actual}, not {expected}',
  'judge.status.notFailed': 'expected a status other than {expected}, got {actual}',
  'judge.time.passed': 'took {ms} ms, within {limit} ms',
  'judge.time.failed': 'expected at most {limit} ms, took {ms} ms',
  'judge.size.passed': '{bytes} bytes, within {limit} bytes',
  'judge.size.failed': 'expected at most {limit} bytes, got {bytes} bytes',
  // {subject} is a `subject.*` phrase; {subjects} is 1 for "the body", 2 for "the headers".
  'judge.contains.passed': '{subject} {subjects|contains|contain} "{expected}"',
  'judge.contains.failed': 'expected {subject} to contain "{expected}"; {subjects|it does|they do} not',
  'judge.contains.notPassed': '{subject} {subjects|does|do} not contain "{expected}"',
  'judge.contains.notFailed':
    'expected {subject} not to contain "{expected}", but {subjects|it does|they do}',
  'judge.matches.passed': '{subject} {subjects|matches|match} /{expected}/',
  'judge.matches.failed': 'expected {subject} to match /{expected}/; {subjects|it does|they do} not',
  'judge.matches.notPassed': '{subject} {subjects|does|do} not match /{expected}/',
  'judge.matches.notFailed': 'expected {subject} not to match /{expected}/, but {subjects|it does|they do}',
  'judge.regex.cannotJudge': '/{expected}/ cannot be judged: {problem}',
  'subject.body': 'the body',
  'subject.headers': 'the headers',
  'subject.status_code': 'the status code',
  'judge.header.missing': 'expected header {name}: {want}, but the response has no {name} header',
  'judge.header.notMissing': 'the response has no {name} header, so it is not {want}',
  'judge.header.passed': 'header {name} is {value}',
  'judge.header.failed': 'expected header {name}: {want}, got {value}',
  'judge.header.notPassed': 'header {name} is {value}, not {want}',
  'judge.header.notFailed': 'expected header {name} not to be {want}, but it is {value}',
  'judge.jsonPath.notARule': '"{expected}" is not a JSON path rule',
  'judge.jsonPath.cannotJudge': '{expected} cannot be judged: {problem}',
  'judge.jsonPath.notJson': 'expected JSON to read {path}, but the body is not JSON',
  'judge.jsonPath.exists': '{path} is {actual}',
  'judge.jsonPath.missing': 'expected {path} in the body; it is not there',
  'judge.jsonPath.absent': '{path} is not in the body',
  'judge.jsonPath.present': 'expected {path} not to be in the body, but it is {actual}',
  'judge.jsonPath.equals': '{path} is {actual} as expected',
  'judge.jsonPath.equalsFailed': 'expected {path} == {value}, got {actual}',
  'judge.jsonPath.isNot': '{path} is {actual}, not {value}',
  'judge.jsonPath.isFailed': 'expected {path} not to be {value}, but it is',
  'judge.jsonPath.differsFailed': 'expected {path} != {value}, but it is',
  'judge.jsonPath.negatedDiffersFailed': 'expected {path} == {value} (a negated != rule), got {actual}',
  'judge.jsonPath.matches': '{path} is {actual}, matching /{value}/',
  'judge.jsonPath.matchFailed': 'expected {path} to match /{value}/, got {actual}',
  'judge.jsonPath.notMatches': '{path} is {actual}, not matching /{value}/',
  'judge.jsonPath.notMatchFailed': 'expected {path} not to match /{value}/, but it is {actual}',
  'judge.xpath.notXml': 'expected an XML body to evaluate {expected}, but the body is not XML ({reason})',
  'judge.xpath.notXPath': '"{expected}" is not an XPath 1.0 query ({reason})',
  'judge.xpath.seen': '{expected} {seen}',
  'judge.xpath.failed': 'expected {expected} to select a node or be true; it {seen}',
  'judge.xpath.notFailed': 'expected {expected} to select no node and not be true, but it {seen}',
  'xpath.selectsNone': 'selects no node',
  'xpath.selects': 'selects {count} {count|node|nodes}, the first "{first}"',
  'xpath.emptyString': 'is an empty string',
  'xpath.string': 'is "{value}"',
  'xpath.value': 'is {value}',
  'judge.schema.unusable': 'the expected schema cannot be used: {problem}',
  'judge.schema.tooLarge': 'the body is too large to be checked against the schema',
  'judge.schema.notJson': 'expected a JSON body matching the schema, but the body is not JSON',
  'judge.schema.conforms': 'the body conforms to the schema',
  'judge.schema.violations': '{count} schema {count|violation|violations}: {listed}',
  'judge.schema.violationsMore': '{count} schema {count|violation|violations}: {listed}; and {more} more',
  'judge.uiRuleOnCall': '{type} is checked on a web page in a browser; an API call cannot be judged by it',
  // A rule judged on no response: {expectation} is an `expect.*` phrase, {failure} why nothing came.
  'judge.noResponse': '{expectation}, but {failure:lc}',
  'judge.nothingCame': 'nothing came back',
  'expect.status': 'expected status {expected}',
  'expect.notStatus': 'expected a status other than {expected}',
  'expect.time': 'expected an answer within {expected} ms',
  'expect.size': 'expected at most {expected} bytes',
  'expect.contains.body': 'expected the body to contain "{expected}"',
  'expect.contains.headers': 'expected the headers to contain "{expected}"',
  'expect.contains.status_code': 'expected the status code to contain "{expected}"',
  'expect.notContains.body': 'expected the body not to contain "{expected}"',
  'expect.notContains.headers': 'expected the headers not to contain "{expected}"',
  'expect.notContains.status_code': 'expected the status code not to contain "{expected}"',
  'expect.matches.body': 'expected the body to match /{expected}/',
  'expect.matches.headers': 'expected the headers to match /{expected}/',
  'expect.matches.status_code': 'expected the status code to match /{expected}/',
  'expect.notMatches.body': 'expected the body not to match /{expected}/',
  'expect.notMatches.headers': 'expected the headers not to match /{expected}/',
  'expect.notMatches.status_code': 'expected the status code not to match /{expected}/',
  'expect.header': 'expected header {expected}',
  'expect.notHeader': 'expected header {expected} not to be sent',
  'expect.jsonPath': 'expected {expected} in the body',
  'expect.notJsonPath': 'expected {expected} not to hold in the body',
  'expect.xpath': 'expected {expected} in an XML body',
  'expect.notXpath': 'expected {expected} to select nothing in an XML body',
  'expect.schema': 'expected a body matching the schema',
} as const;

/** Why a call got no response (packages/engine/src/call/http-call.ts). */
const NETWORK = {
  'net.closedMidResponse': 'The connection to {where} closed before the whole response came',
  'net.refused': 'Connection refused by {where}',
  'net.hostNotFound': 'The host {host} was not found (DNS lookup failed)',
  'net.closedBeforeResponse': 'The connection to {where} closed before a response came',
  'net.connectTimeout': 'Could not connect to {where} in time',
  'net.unreachable': '{where} cannot be reached from here',
  'net.notHttp': '{where} answered with something that is not HTTP',
  'net.tls': 'TLS with {where} failed: {reason}',
  'net.failed': 'The request to {where} failed: {reason}',
  'net.noResponseWithin': "No response within {seconds} s (the API's timeout)",
  'net.responseUnfinished': "The response did not finish within {seconds} s (the API's timeout)",
  'net.couldNotSend': 'The request could not be sent: {reason}',
  'capture.nothing': 'Capture {name} found nothing',
  'capture.nothingBecause': 'Capture {name} found nothing: {problem}',
} as const;

/** Judgements of a UI test's checks (packages/ui-runner/src/ui-judge.ts). */
const UI = {
  'ui.contains.passed': 'the page contains "{expected}"',
  'ui.contains.failed': 'expected the page to contain "{expected}"; it does not',
  'ui.selector.invalid': '"{expected}" is not a CSS selector or XPath query ({why})',
  'ui.selector.passed': '{count} {count|element|elements} matching {expected}',
  'ui.selector.failed': 'expected an element matching {expected}; none is on the page',
  'ui.title.passed': 'the title is "{title}"',
  'ui.title.failed': 'expected the title "{expected}", got "{title}"',
  'ui.notUiRule': 'A UI test checks {types}, not {type}',
  'ui.noPage': '{expectation}, but {failure}',
  'ui.page.noDocument': 'expected the page to answer {expected}, but no document came back',
  'ui.page.passed': 'the page answered status {status} (a page without checks passes on 2xx or 3xx)',
  'ui.page.failed': 'expected the page to answer {expected}, got {status}',
  'expect.ui.contains': 'expected the page to contain "{expected}"',
  'expect.ui.selector': 'expected an element matching {expected}',
  'expect.ui.title': 'expected the title "{expected}"',
  'expect.ui.page': 'expected the page to answer {expected}',
  'expect.ui.other': 'expected {type} {expected}',
} as const;

/** Why a run ended early or failed, as its result screen's banner says it. */
const RUN = {
  'run.interrupted': 'interrupted by a server restart',
  'run.stoppedByShutdown': 'stopped because the server shut down',
  'functional.interrupted': 'The server stopped during the run, so it did not finish',
  'functional.stoppedByShutdown': 'Stopped because the server shut down',
  'functional.durationEnded':
    'The test duration of {duration} ended after {done} of {total} {total|iteration|iterations}',
  'functional.runnerFailed': 'The functional runner failed: {reason}',
  'duration.minutes': '{count} min',
  'duration.seconds': '{count} s',
} as const;

/** The body of a message about an ended run (apps/server/src/services/message-text.ts). */
const MESSAGE = {
  'message.noRequests': 'No requests were measured',
  'message.broke': 'Broke {thresholds}',
  'message.brokeOne': '{threshold} (was {actual})',
  'message.thresholdHeld': 'Threshold held',
  'message.thresholdsHeld': 'All {count} thresholds held',
  'message.notChecked': 'Not checked: {problem}',
  'message.loadFigures': '{requests} {count|request|requests} · error rate {errorRate}% · p95 {p95}',
  'message.calls': '{total} {count|call|calls}: {passed} passed, {failed} failed',
  'message.steps': '{total} {count|step|steps}: {passed} passed, {failed} failed',
  'message.validationsFailed': '{total} {count|validation|validations} failed',
} as const;

export const PHRASES_EN = { ...RAW, ...JUDGE, ...NETWORK, ...UI, ...RUN, ...MESSAGE } as const;

export type PhraseCode = keyof typeof PHRASES_EN;
