import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';
import { FunctionalResultSchema, type CallResult, type FunctionalResult } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { functionalHtmlReport, functionalJsonReport, functionalJunitReport } from './index';

const HOSTILE = `<script>alert("x")</script> & ]]> 'q' \u0001\u0008 \uD800 end`;
/** The hostile name with what XML cannot hold (two C0 controls, a lone surrogate) removed. */
const HOSTILE_IN_XML = `<script>alert("x")</script> & ]]> 'q'   end`;
const NOT_XML_CHARS = ['\u0001', '\u0008', '\uD800'];

function call(fields: Partial<CallResult> & Pick<CallResult, 'api_name' | 'success'>): CallResult {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:9/x',
    status_code: 200,
    response_time: 12.5,
    validation_details: [],
    iteration: 1,
    user: 1,
    ...fields,
  };
}

const statusRule = (passed: boolean, actual: string | null) => ({
  type: 'status_code' as const,
  expected: '200',
  actual,
  passed,
  message: passed ? 'status 200 as expected' : `expected status 200, got ${actual ?? 'no response'}`,
});

/** Two iterations of three APIs: one passes, one fails two rules, one gets no response. */
function result(): FunctionalResult {
  const calls: CallResult[] = [];
  for (const iteration of [1, 2]) {
    calls.push(
      call({
        api_name: 'List pets',
        success: true,
        iteration,
        validation_details: [statusRule(true, '200')],
      }),
    );
    calls.push(
      call({
        api_name: HOSTILE,
        success: false,
        iteration,
        status_code: 401,
        validation_details: [
          statusRule(false, '401'),
          {
            type: 'schema',
            expected: JSON.stringify({
              type: 'object',
              required: ['id'],
              properties: { id: { type: 'integer' } },
            }),
            actual: '{"name":"<b>"}',
            passed: false,
            message: 'the body does not match the schema: 1 violation',
            violations: [{ path: '/id', message: "must have required property 'id'" }],
          },
        ],
        timings: { dns: 1, connect: 2, tls: 0, ttfb: 8, download: 1.5 },
        evidence: {
          request: {
            method: 'GET',
            url: 'http://127.0.0.1:9/x',
            headers: { authorization: 'Bearer s3cret' },
            body: '',
          },
          response: {
            status: 401,
            headers: { 'content-type': 'application/json' },
            body: '{"name":"<b>"}',
            truncated: false,
          },
        },
      }),
    );
    calls.push(
      call({
        api_name: 'Refused',
        success: false,
        iteration,
        status_code: null,
        error: 'connection refused',
        validation_details: [statusRule(false, null)],
      }),
    );
  }
  return FunctionalResultSchema.parse({
    test_id: 'fc_test',
    test_name: `Suite ${HOSTILE}`,
    description: '',
    status: 'failed',
    start_time: '2026-11-26T10:00:00.000Z',
    end_time: '2026-11-26T10:00:02.500Z',
    error: null,
    summary: { total_requests: 4, successful_requests: 2, failed_requests: 4, validation_failures: 6 },
    validation_results: calls,
    api_results: [],
  });
}

function parseXml(xml: string) {
  return new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
}

/** The <testsuites> counts, and each suite's name and its cases' names. */
function junitShape(xml: string) {
  const doc = parseXml(xml);
  const root = doc.getElementsByTagName('testsuites')[0]!;
  return {
    doc,
    counts: ['tests', 'failures', 'errors'].map((a) => Number(root.getAttribute(a))),
    suites: Array.from(doc.getElementsByTagName('testsuite')).map((suite) => ({
      name: suite.getAttribute('name'),
      counts: ['tests', 'failures', 'errors'].map((a) => Number(suite.getAttribute(a))),
      cases: Array.from(suite.getElementsByTagName('testcase')),
    })),
  };
}

describe('functionalJunitReport', () => {
  it('is XML a parser reads back: a suite per call, a case per rule (as Newman), with correct counts', () => {
    const xml = functionalJunitReport(result());
    expect(NOT_XML_CHARS.filter((c) => xml.includes(c))).toEqual([]);
    const { doc, counts, suites } = junitShape(xml);
    expect(doc.getElementsByTagName('testsuites')[0]!.getAttribute('name')).toBe(`Suite ${HOSTILE_IN_XML}`);
    expect(doc.getElementsByTagName('testsuites')[0]!.getAttribute('time')).toBe('2.500');
    expect(counts).toEqual([8, 4, 2]);
    expect(suites.map((s) => s.name)).toEqual([
      ...[1, 2].flatMap((i) =>
        ['List pets', HOSTILE_IN_XML, 'Refused'].map((name) => `${name} (iteration ${i}, user 1)`),
      ),
      `Suite ${HOSTILE_IN_XML} (run)`,
    ]);
    expect(suites.map((s) => s.counts)).toEqual([
      ...[1, 2].flatMap(() => [
        [1, 0, 0],
        [2, 2, 0],
        [1, 0, 1],
      ]),
      [0, 0, 0],
    ]);
    const [pets, hostile, refused] = suites;
    expect(pets!.cases.map((c) => c.getAttribute('name'))).toEqual(['status_code 200']);
    expect(hostile!.cases.map((c) => c.getAttribute('name'))).toEqual(['status_code 200', 'schema']);
    expect(pets!.cases[0]!.getAttribute('time')).toBe('0.013');
    expect(pets!.cases[0]!.getAttribute('classname')).toBe(`Suite ${HOSTILE_IN_XML}.List pets`);
    const failure = hostile!.cases[0]!.getElementsByTagName('failure')[0]!;
    expect(failure.getAttribute('message')).toBe('expected status 200, got 401');
    expect(failure.getAttribute('type')).toBe('AssertionFailure');
    expect(failure.textContent).toContain('expected: 200');
    expect(failure.textContent).toContain('actual:   401');
    expect(hostile!.cases[1]!.getElementsByTagName('failure')[0]!.textContent).toContain(
      `at /id: must have required property 'id'`,
    );
    // The evidence goes with the call's first failed case, once.
    const out = hostile!.cases[0]!.getElementsByTagName('system-out')[0]!.textContent ?? '';
    expect(out).toContain('> authorization: ***');
    expect(out).not.toContain('s3cret');
    expect(out).toContain('{"name":"<b>"}');
    expect(hostile!.cases[1]!.getElementsByTagName('system-out').length).toBe(0);
    const error = refused!.cases[0]!.getElementsByTagName('error')[0]!;
    expect(error.getAttribute('message')).toBe('connection refused');
    expect(refused!.cases[0]!.getElementsByTagName('failure').length).toBe(0);
  });

  it('names a case by its rule name when the rule has one, else by type and expected value', () => {
    const named = result();
    named.validation_results = [
      call({
        api_name: 'Login',
        success: true,
        validation_details: [
          { ...statusRule(true, '200'), name: 'Token is returned' },
          statusRule(true, '200'),
        ],
      }),
    ];
    const { suites } = junitShape(functionalJunitReport(named));
    expect(suites[0]!.name).toBe('Login');
    expect(suites[0]!.cases.map((c) => c.getAttribute('name'))).toEqual([
      'Token is returned',
      'status_code 200',
    ]);
  });

  it('makes the consecutive rules one Postman test became one case, as Newman counts it; scripts stay one each', () => {
    const rule = (name: string, passed: boolean, expected: string) => ({
      ...statusRule(passed, passed ? expected : '500'),
      expected,
      name,
      message: passed ? `status ${expected} as expected` : `expected status ${expected}, got 500`,
    });
    const script = (name: string, passed: boolean) => ({
      type: 'script' as const,
      expected: '',
      actual: null,
      name,
      passed,
      message: passed ? 'passed' : 'AssertionError: boom',
    });
    const run = result();
    run.validation_results = [
      call({
        api_name: 'Create',
        success: false,
        validation_details: [
          rule('Created well', true, '201'),
          rule('Created well', false, '200'),
          rule('Created well', false, '202'),
          rule('Other', true, '200'),
          rule('Created well', true, '201'),
          script('Body ok', true),
          script('Body ok', false),
        ],
      }),
    ];
    const { suites } = junitShape(functionalJunitReport(run));
    const cases = suites[0]!.cases;
    // The first three rules are one test; the later rule of the same name, after another, is its own.
    expect(cases.map((c) => c.getAttribute('name'))).toEqual([
      'Created well',
      'Other',
      'Created well',
      'Body ok',
      'Body ok',
    ]);
    expect(suites[0]!.counts).toEqual([5, 2, 0]);
    const failure = cases[0]!.getElementsByTagName('failure')[0]!;
    // Its message is the first failed expectation's; its text names each failed one.
    expect(failure.getAttribute('message')).toBe('expected status 200, got 500');
    expect(failure.textContent).toContain('200');
    expect(failure.textContent).toContain('202');
    expect(cases[2]!.getElementsByTagName('failure')).toHaveLength(0);
    expect(cases[4]!.getElementsByTagName('failure')).toHaveLength(1);
  });

  it('adds a (run) error when the run could not run, so CI never reads it as passed', () => {
    const { doc, counts } = junitShape(
      functionalJunitReport({ ...result(), validation_results: [], error: 'Nothing could be sent:\n"bad"' }),
    );
    expect(counts).toEqual([1, 0, 1]);
    const error = doc.getElementsByTagName('error')[0]!;
    expect(error.getAttribute('message')).toBe('Nothing could be sent:\n"bad"');
  });

  it('fails the report for failed calls a long run did not keep', () => {
    const long = { ...result(), calls_omitted: 10 };
    long.summary = { ...long.summary, failed_requests: long.summary.failed_requests + 3 };
    const { counts, suites } = junitShape(functionalJunitReport(long));
    expect(counts).toEqual([9, 5, 2]);
    const run = suites[suites.length - 1]!;
    expect(run.cases[0]!.getElementsByTagName('failure')[0]!.getAttribute('message')).toBe(
      '3 of the 10 calls after the first 6 failed; this report keeps the first 6',
    );
  });

  it('names calls by their API alone when the run had one pass', () => {
    const one = result();
    one.validation_results = one.validation_results.filter((c) => c.iteration === 1);
    expect(junitShape(functionalJunitReport(one)).suites[0]!.name).toBe('List pets');
  });

  it('fails a call whose rules passed but whose capture found nothing, in a (call) case', () => {
    const capture = result();
    capture.validation_results = [
      call({
        api_name: 'Login',
        success: false,
        error: 'The capture token found nothing',
        validation_details: [statusRule(true, '200')],
      }),
    ];
    const { counts, suites } = junitShape(functionalJunitReport(capture));
    expect(counts).toEqual([2, 1, 0]);
    expect(suites[0]!.cases[1]!.getAttribute('name')).toBe('(call)');
  });
});

describe('functionalHtmlReport', () => {
  it('escapes a hostile API name and body and loads nothing from outside', () => {
    const html = functionalHtmlReport(result());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; &#39;q&#39;');
    expect(html).toContain('{&quot;name&quot;:&quot;&lt;b&gt;&quot;}');
    expect(html).not.toMatch(/\b(?:src|href)=/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain('s3cret');
    // The failed rule's expected, actual and message, a violation's path and the timing phases.
    expect(html).toContain('expected status 200, got 401');
    expect(html).toContain('<code>/id</code>');
    expect(html).toContain('Time to first byte 8 ms');
    expect(html).toContain('connection refused');
  });
});

describe('an interrupted run in the reports', () => {
  it('keeps its judged calls and says the run was interrupted, as an error CI never reads as passed', () => {
    const error = 'The server stopped during the run, so it did not finish';
    const interrupted = FunctionalResultSchema.parse({ ...result(), status: 'interrupted', error });
    const { doc, counts } = junitShape(functionalJunitReport(interrupted));
    expect(counts).toEqual([9, 4, 3]);
    const run = Array.from(doc.getElementsByTagName('testcase')).find(
      (c) => c.getAttribute('name') === '(run)',
    )!;
    expect(run.getElementsByTagName('error')[0]!.getAttribute('type')).toBe('run interrupted');
    const html = functionalHtmlReport(interrupted);
    expect(html).toContain('<span class="badge interrupted">interrupted</span>');
    expect(html).toMatch(/\.interrupted\{background:#fdf6b2/);
    expect(html).toContain(error);
  });
});

describe('functionalJsonReport', () => {
  it('reads back as the same result', () => {
    const r = result();
    expect(FunctionalResultSchema.parse(JSON.parse(functionalJsonReport(r)))).toEqual(r);
  });
});
