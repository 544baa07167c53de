import { readFileSync } from 'node:fs';
import { ApiDefinitionSchema, FunctionalPlanSchema, type ApiDefinitionInput } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../test/fixtures';
import { readTaurusScript } from './read-taurus';
import { type TaurusReadResult, TaurusScriptError, type TaurusWarning } from './taurus-model';

/**
 * The Taurus reader against the grammar of Taurus's own documentation (JMeter executor: requests,
 * assertions, extractors, logic blocks, data sources) and against examples Taurus ships, copied into
 * test-fixtures/taurus/examples. docs/reference/02-running.md §3 "Taurus scripts" is the mapping these tests hold it to.
 */

const kept = (path: string) => readFileSync(`${FIXTURES_DIR}taurus/examples/${path}`, 'utf8');

function refusal(text: string): TaurusScriptError {
  try {
    readTaurusScript(text);
  } catch (error) {
    if (error instanceof TaurusScriptError) return error;
    throw error;
  }
  throw new Error('expected the script to be refused');
}

/** The warning at `path`, which must be there exactly once. */
function warningAt(result: { warnings: TaurusWarning[] }, path: string): TaurusWarning {
  const found = result.warnings.filter((w) => w.path === path);
  expect(found, `warnings at ${path}: ${JSON.stringify(result.warnings, null, 1)}`).toHaveLength(1);
  return found[0] as TaurusWarning;
}

/** The result is a plan the model accepts, as the script screen will save it. */
function asPlan(result: TaurusReadResult) {
  // The script's own variables stay in its YAML (they are not the plan's Postman-style `variables`).
  const { variables: _scriptVariables, ...read } = result;
  return FunctionalPlanSchema.parse({
    ...read,
    source: 'script_input',
    script_content: 'read',
  });
}

describe('Taurus examples kept in the repository', () => {
  it('apiritif_basic.yml: default-address, timeout, JSON assertions, extractions chained into later URLs, a JSON body', () => {
    const result = readTaurusScript(kept('apiritif/apiritif_basic.yml'));
    expect(result.test_name).toBe('with-extractors');
    expect(result.apis.map((a) => `${a.method} ${a.url}`)).toEqual([
      'GET https://jsonplaceholder.typicode.com/',
      'GET https://jsonplaceholder.typicode.com/posts',
      'GET https://jsonplaceholder.typicode.com/posts?userId={{userID}}',
      'GET https://jsonplaceholder.typicode.com/posts/{{postID}}/comments',
      'POST https://jsonplaceholder.typicode.com/posts',
      'DELETE https://jsonplaceholder.typicode.com/posts/{{addedID}}',
    ]);
    expect(result.apis.map((a) => a.name)).toEqual([
      'just get',
      'get posts',
      'get posts of certain user',
      'get comments on post',
      'add into posts',
      'delete from posts',
    ]);
    // timeout: 5s at scenario level reaches every request.
    expect(result.apis.map((a) => a.timeout)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(result.apis[1]?.validations).toEqual([{ type: 'json_path', expected_value: '$.[0].userId == 1' }]);
    expect(result.apis[1]?.captures).toEqual([
      { name: 'userID', from: 'json_path', expression: '$.[5].userId', default: 'NOT_FOUND' },
    ]);
    expect(result.apis[3]?.validations).toEqual([{ type: 'json_path', expected_value: '$[0].email' }]);
    // A map body with Content-Type application/json is sent as JSON (bzt/jmx/http.py).
    expect(JSON.parse(result.apis[4]?.body ?? '')).toEqual({
      title: 'foo',
      body: 'bar',
      userId: '{{userID}}',
    });
    expect(result.apis[4]?.headers).toEqual({ 'content-type': 'application/json' });
    expect(result.iterations).toBe(1);
    expect(warningAt(result, 'reporting')).toMatchObject({ line: 6, effect: 'skipped' });
    asPlan(result);
  });

  it('default-address-trick.yml: an inline scenario includes a named one, whose requests use its default-address', () => {
    const result = readTaurusScript(kept('jmeter/default-address-trick.yml'));
    expect(result.apis).toHaveLength(1);
    expect(result.apis[0]).toMatchObject({ name: 'Home', method: 'GET', url: 'http://blazedemo.com/' });
    expect(result).toMatchObject({ concurrent_users: 5, ramp_up_time: 30, test_duration: 1, think_time: 0 });
    // The request's own 500ms think-time differs from the plan's single think time.
    expect(warningAt(result, 'scenarios.my_scenario.requests[0].think-time')).toMatchObject({
      line: 8,
      effect: 'skipped',
    });
  });

  it('gatling-req.yml: a Gatling execution is refused with its path and line', () => {
    const error = refusal(kept('gatling/gatling-req.yml'));
    expect(error.message).toMatch(
      /^Nothing in this script can run as a functional test: execution\[0\]\.executor \(line 3\)/,
    );
    expect(error.warnings).toEqual([
      expect.objectContaining({ path: 'execution[0].executor', line: 3, effect: 'refused' }),
    ]);
  });
});

describe('requests', () => {
  it('reads the short and full forms, default-address without a scheme, methods, labels and merged headers', () => {
    const result = readTaurusScript(`
execution:
- scenario: s
scenarios:
  s:
    default-address: api.example.test:8080
    headers:
      Accept: application/json
      X-Tracking: false
    requests:
    - /ping
    - url: http://other.test/items?page=2
      method: put
      label: Replace
      headers:
        accept: text/plain
      body: 'plain text'
    - url: search
      body:
        q: a b&c
        n: 3
`);
    expect(result.apis.map((a) => [a.name, a.method, a.url, a.headers, a.body, a.params])).toEqual([
      [
        'GET http://api.example.test:8080/ping',
        'GET',
        'http://api.example.test:8080/ping',
        { Accept: 'application/json', 'X-Tracking': 'false' },
        '',
        [],
      ],
      [
        'Replace',
        'PUT',
        'http://other.test/items?page=2',
        { 'X-Tracking': 'false', accept: 'text/plain' },
        'plain text',
        [],
      ],
      [
        'GET http://api.example.test:8080/search',
        'GET',
        'http://api.example.test:8080/search',
        { Accept: 'application/json', 'X-Tracking': 'false' },
        '',
        // A map body of a GET is its query (JMeter's arguments).
        [
          { name: 'q', value: 'a b&c' },
          { name: 'n', value: '3' },
        ],
      ],
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.think_time).toBe(0);
  });

  it('form-encodes a map body without a JSON content type, keeping {{variables}} whole', () => {
    const result = readTaurusScript(`
execution: {scenario: s}
scenarios:
  s:
    requests:
    - url: http://a.test/login
      method: POST
      body: {user: "\${name}", pass: "p&ss word"}
`);
    expect(result.apis[0]?.body).toBe('user={{name}}&pass=p%26ss+word');
    expect(result.apis[0]?.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
  });

  it('turns ${name} into {{name}}, puts fixed variables in, and keeps JMeter functions as written with a warning', () => {
    const result = readTaurusScript(`
execution:
- scenario: s
scenarios:
  s:
    variables:
      host: http://v.test
      path: /api/\${version}
      version: v2
      token: initial
    requests:
    - url: \${host}\${path}/users?r=\${__Random(1,9)}
      headers:
        Authorization: Bearer \${token}
      extract-regexp:
        token: 'token=(\\w+)'
`);
    const api = result.apis[0];
    // token is extracted while the test runs, so it stays a variable (starting from its value).
    expect(api?.url).toBe('http://v.test/api/v2/users?r=${__Random(1,9)}');
    expect(api?.headers).toEqual({ Authorization: 'Bearer {{token}}' });
    expect(result.variables).toEqual({
      host: 'http://v.test',
      path: '/api/v2',
      version: 'v2',
      token: 'initial',
    });
    expect(warningAt(result, 'scenarios.s.requests[0].url')).toMatchObject({
      line: 12,
      message: expect.stringContaining('${__Random(1,9)} is a JMeter function') as string,
    });
  });

  it("warns once, at the scenario's timeout, when every request rounds it", () => {
    const result = readTaurusScript(`
execution: [{scenario: s}]
scenarios:
  s:
    timeout: 500ms
    requests: [http://a.test/1, http://a.test/2]
`);
    expect(result.apis.map((a) => a.timeout)).toEqual([1, 1]);
    expect(result.warnings).toEqual([
      {
        path: 'scenarios.s.timeout',
        line: 5,
        message: 'The timeout of 500 ms is 1 s here: a functional test waits whole seconds from 1 to 300',
        effect: 'skipped',
      },
    ]);
  });

  it('names a {{variable}} nothing sets, once, unless a data source of unknown columns may set it', () => {
    const script = (sources: string) => `
execution: [{scenario: s}]
scenarios:
  s:
${sources}    requests:
    - http://a.test/\${missing}
    - http://a.test/\${missing}/\${id}
    - url: http://a.test/login
      extract-jsonpath: {id: $.id}
`;
    const result = readTaurusScript(script(''));
    expect(result.warnings).toEqual([
      {
        path: 'scenarios.s.requests[0]',
        line: 6,
        message:
          'No variable, extractor or data source column in this script sets ${missing}, so {{missing}} is sent as written',
        effect: 'skipped',
      },
    ]);
    const withData = readTaurusScript(script('    data-sources: [rows.csv]\n'));
    expect(withData.warnings.map((w) => w.path)).toEqual(['scenarios.s.data-sources[0]']);
  });

  it('reads durations: timeout rounded up to whole seconds, think-time, ramp-up and hold-for, each change warned', () => {
    const result = readTaurusScript(`
execution:
- scenario: s
  concurrency: 250
  iterations: 3
  ramp-up: 1m30s
  hold-for: 90s
scenarios:
  s:
    think-time: 1s500ms
    timeout: 2s
    requests:
    - url: http://a.test/
      timeout: 1500ms
    - http://a.test/b
`);
    expect(result).toMatchObject({
      concurrent_users: 100,
      iterations: 3,
      ramp_up_time: 90,
      test_duration: 2,
      think_time: 2,
    });
    expect(result.apis.map((a) => a.timeout)).toEqual([2, 2]);
    expect(warningAt(result, 'execution[0].concurrency')).toMatchObject({ line: 4 });
    expect(warningAt(result, 'execution[0].hold-for')).toMatchObject({ line: 7 });
    expect(warningAt(result, 'scenarios.s.think-time')).toMatchObject({ line: 10 });
    expect(warningAt(result, 'scenarios.s.requests[0].timeout')).toMatchObject({
      line: 14,
      message: 'The timeout of 1500 ms is 2 s here: a functional test waits whole seconds from 1 to 300',
    });
  });
});

describe('assertions', () => {
  const one = (assertions: string) =>
    readTaurusScript(`
execution: [{scenario: s}]
scenarios:
  s:
    requests:
    - url: http://a.test/
${assertions
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
`);

  it('assert: contains, regexp, not and the three subjects', () => {
    const result = one(`
assert:
- Welcome
- .+App.+
- contains: [200]
  subject: http-code
- contains: ['^2\\d\\d$']
  subject: http-code
  not: true
- contains: [a.b, 'x+y']
  regexp: false
- contains: [Content-Type, 'Set-Cookie: .*id=']
  subject: headers
  not: true
  assume-success: true
`);
    expect(result.apis[0]?.validations).toEqual([
      { type: 'contains_text', expected_value: 'Welcome' },
      { type: 'regex', expected_value: '.+App.+' },
      { type: 'status_code', expected_value: '200' },
      { type: 'regex', expected_value: '^2\\d\\d$', subject: 'status_code', negate: true },
      { type: 'contains_text', expected_value: 'a.b' },
      { type: 'contains_text', expected_value: 'x+y' },
      { type: 'contains_text', expected_value: 'Content-Type', subject: 'headers', negate: true },
      { type: 'regex', expected_value: 'Set-Cookie: .*id=', subject: 'headers', negate: true },
    ]);
    expect(result.warnings).toEqual([]);
    const api: ApiDefinitionInput = result.apis[0] ?? { name: '' };
    expect(ApiDefinitionSchema.parse(api).validations).toHaveLength(8);
  });

  it('assert-jsonpath: existence, expected value as text or whole-value regex, invert, expect-null', () => {
    const result = one(`
assert-jsonpath:
- $.id
- jsonpath: $.name
  validate: true
  expected-value: Ann
- jsonpath: $.code
  validate: true
  expected-value: 'A\\d+'
- jsonpath: $.state
  validate: true
  expected-value: closed
  regexp: false
  invert: true
- jsonpath: $.deleted
  validate: true
  expect-null: true
- jsonpath: $.tag
  validate: true
  expected-value: '[\\s\\S]*new[\\s\\S]*'
  invert: true
- jsonpath: $.gone
  invert: true
`);
    expect(result.apis[0]?.validations).toEqual([
      { type: 'json_path', expected_value: '$.id' },
      { type: 'json_path', expected_value: '$.name == Ann' },
      { type: 'json_path', expected_value: '$.code ~ ^(?:A\\d+)$' },
      { type: 'json_path', expected_value: '$.state != closed' },
      { type: 'json_path', expected_value: '$.deleted == null' },
      { type: 'json_path', expected_value: '$.tag ~ new', negate: true },
      { type: 'json_path', expected_value: '$.gone', negate: true },
    ]);
  });

  it('assert-xpath: short and full forms, invert', () => {
    const result = one(`
assert-xpath:
- /bookstore/book
- xpath: "/html/head/title/text()='My title'"
  invert: true
  use-tolerant-parser: true
`);
    expect(result.apis[0]?.validations).toEqual([
      { type: 'xpath', expected_value: '/bookstore/book' },
      { type: 'xpath', expected_value: "/html/head/title/text()='My title'", negate: true },
    ]);
    expect(warningAt(result, 'scenarios.s.requests[0].assert-xpath[1]').message).toMatch(/tolerant parser/);
  });

  it('skips what the model cannot check, naming the path and line', () => {
    const result = one(`
assert:
- contains: ['(unclosed']
- contains: [x]
  subject: url
`);
    expect(result.apis[0]?.validations).toEqual([]);
    expect(warningAt(result, 'scenarios.s.requests[0].assert[0].contains[0]')).toMatchObject({
      line: 8,
      message: expect.stringContaining('Expected value must be a valid regular expression') as string,
    });
    expect(warningAt(result, 'scenarios.s.requests[0].assert[1]')).toMatchObject({
      line: 9,
      effect: 'skipped',
    });
  });
});

describe('extractors', () => {
  it('extract-jsonpath, extract-regexp with template, match-no and default, extract-boundary; skips xpath and other subjects', () => {
    const result = readTaurusScript(`
execution: [{scenario: s}]
scenarios:
  s:
    requests:
    - url: http://a.test/
      extract-jsonpath:
        id: $.id
        name: {jsonpath: $.user.name, default: nobody}
      extract-regexp:
        first: 'id=(\\d+)'
        second: {regexp: '(\\w+)=(\\w+)', template: $2$, match-no: 3, default: ''}
        whole: {regexp: 'x\\d', template: 0}
        random: {regexp: 'y(\\d)', match-no: 0}
        joined: {regexp: '(a)(b)', template: $1$-$2$}
        fromUrl: {regexp: '/(.*)', subject: url}
      extract-boundary:
        between: {left: '<b>', right: '</b>'}
      extract-xpath:
        title: /html/head/title
`);
    expect(result.apis[0]?.captures).toEqual([
      { name: 'id', from: 'json_path', expression: '$.id', default: 'NOT_FOUND' },
      { name: 'name', from: 'json_path', expression: '$.user.name', default: 'nobody' },
      { name: 'first', from: 'regex', expression: 'id=(\\d+)', default: 'NOT_FOUND' },
      { name: 'second', from: 'regex', expression: '(\\w+)=(\\w+)', default: '', group: 2, match_no: 3 },
      { name: 'whole', from: 'regex', expression: 'x\\d', default: 'NOT_FOUND' },
      { name: 'random', from: 'regex', expression: 'y(\\d)', default: 'NOT_FOUND' },
      { name: 'between', from: 'regex', expression: '<b>([\\s\\S]*?)<\\/b>', default: 'NOT_FOUND' },
    ]);
    expect(warningAt(result, 'scenarios.s.requests[0].extract-regexp.random').message).toMatch(
      /a random match/,
    );
    expect(warningAt(result, 'scenarios.s.requests[0].extract-regexp.joined')).toMatchObject({ line: 15 });
    expect(warningAt(result, 'scenarios.s.requests[0].extract-regexp.fromUrl')).toMatchObject({ line: 16 });
    expect(warningAt(result, 'scenarios.s.requests[0].extract-xpath')).toMatchObject({
      line: 19,
      effect: 'skipped',
    });
  });
});

describe('what cannot run', () => {
  it('warns for each logic block, action, jsr223, body-file and upload, script and other executors, with their lines', () => {
    const result = readTaurusScript(`
execution:
- scenario: s
- executor: gatling
  scenario: s
- executor: newman
  scenario: {script: coll.json}
scenarios:
  s:
    requests:
    - if: '"\${a}" == "b"'
      then: [http://a.test/if]
      else: [http://a.test/else]
    - loop: 3
      do: [http://a.test/loop]
    - while: \${ok}
      do: [http://a.test/while]
    - foreach: n in names
      do: ['http://a.test/\${n}']
    - transaction: Checkout
      do:
      - http://a.test/cart
    - action: pause
      pause-duration: 2s
    - set-variables: {a: b}
    - url: http://a.test/upload
      method: POST
      upload-files: [{param: f, path: r.pdf}]
    - url: http://a.test/file
      method: POST
      body-file: payload.json
      jsr223: 'vars.put("a", "b")'
    - http://a.test/last
  other:
    script: plan.jmx
`);
    expect(result.apis.map((a) => a.url)).toEqual(['http://a.test/cart', 'http://a.test/last']);
    const at = (path: string) => warningAt(result, path);
    expect(at('scenarios.s.requests[0]')).toMatchObject({
      line: 11,
      message: expect.stringContaining('2 request(s) are skipped') as string,
    });
    expect(at('scenarios.s.requests[1]')).toMatchObject({ line: 14 });
    expect(at('scenarios.s.requests[2]')).toMatchObject({ line: 16 });
    expect(at('scenarios.s.requests[3]')).toMatchObject({ line: 18 });
    expect(at('scenarios.s.requests[4]')).toMatchObject({
      line: 20,
      message: expect.stringContaining('grouping is skipped') as string,
    });
    expect(at('scenarios.s.requests[5]')).toMatchObject({
      line: 23,
      message: expect.stringContaining('pause (2s)') as string,
    });
    expect(at('scenarios.s.requests[6]')).toMatchObject({ line: 25 });
    expect(at('scenarios.s.requests[7].upload-files')).toMatchObject({ line: 28 });
    expect(at('scenarios.s.requests[8].body-file')).toMatchObject({ line: 31 });
    expect(at('scenarios.s.requests[8].jsr223')).toMatchObject({ line: 32 });
    expect(at('execution[1].executor')).toMatchObject({ line: 4 });
    expect(at('execution[2].executor')).toMatchObject({
      line: 6,
      message: expect.stringContaining('newman') as string,
    });
    expect(result.warnings.every((w) => w.effect === 'skipped' && w.line !== undefined)).toBe(true);
  });

  it('uses a body-file and a data source the caller supplies, and lists the data sources', () => {
    const script = `
execution: [{scenario: s}]
scenarios:
  s:
    data-sources:
    - users.csv
    - path: ids.csv
      delimiter: ';'
      loop: false
      variable-names: id;kind
    requests:
    - url: http://a.test/\${id}
      method: POST
      body-file: body.json
      headers: {Content-Type: application/json}
`;
    const without = readTaurusScript(script, { files: { 'body.json': '{"user":"${user}"}' } });
    expect(without.apis[0]?.body).toBe('{"user":"{{user}}"}');
    expect(without.data_sources).toEqual([
      {
        path: 'users.csv',
        delimiter: null,
        loop: true,
        quoted: false,
        variable_names: null,
        supplied: false,
        source: { path: 'scenarios.s.data-sources[0]', line: 6 },
      },
      {
        path: 'ids.csv',
        delimiter: ';',
        loop: false,
        quoted: false,
        variable_names: ['id', 'kind'],
        supplied: false,
        source: { path: 'scenarios.s.data-sources[1]', line: 7 },
      },
    ]);
    expect(without.warnings.map((w) => [w.path, w.line])).toEqual([
      ['scenarios.s.data-sources[0]', 6],
      ['scenarios.s.data-sources[1]', 7],
    ]);
    const supplied = readTaurusScript(script, {
      files: { 'body.json': '{}', 'users.csv': 'user\nann', 'ids.csv': '1;a' },
    });
    expect(supplied.data_sources.map((d) => d.supplied)).toEqual([true, true]);
    expect(supplied.warnings).toEqual([]);
  });

  it("reads keys named like an object's own properties as unknown keys", () => {
    const result = readTaurusScript(`
execution: [{scenario: s}]
scenarios:
  s:
    requests:
    - url: http://a.test/
      constructor: x
      assert: [{contains: [a], subject: toString}]
    - include-scenario: __proto__
`);
    expect(result.apis).toHaveLength(1);
    expect(warningAt(result, 'scenarios.s.requests[0].constructor').message).toBe(
      'constructor is not a request setting a functional test can use; it is skipped',
    );
    expect(warningAt(result, 'scenarios.s.requests[0].assert[0]').message).toMatch(
      /on "toString" is skipped/,
    );
    expect(warningAt(result, 'scenarios.s.requests[1]').message).toMatch(/no scenario named "__proto__"/);
  });

  it('refuses a script with nothing it can run, carrying every reason', () => {
    const error = refusal(`
execution:
- executor: selenium
  scenario: ui
scenarios:
  ui:
    requests:
    - url: http://a.test/
      actions: [clickByID(go)]
`);
    expect(error.warnings).toEqual([
      expect.objectContaining({ path: 'execution[0].executor', line: 3, effect: 'refused' }),
    ]);
    expect(refusal('scenarios:\n  s:\n    requests: [http://a.test/]\n').warnings).toEqual([
      expect.objectContaining({ path: 'execution', effect: 'refused' }),
    ]);
  });
});

describe('documents and bad input', () => {
  it('merges several documents as Taurus merges configs, with the lines of the document that wrote each part', () => {
    const result = readTaurusScript(`execution:
- scenario: s
  concurrency: 2
scenarios:
  s:
    headers: {A: one}
    requests: [http://a.test/1]
---
scenarios:
  s:
    headers: {B: two}
    requests:
    - url: http://a.test/2
      while: x
---
execution:
- scenario: s
  concurrency: 3
`);
    // Lists are extended: both documents' requests, and a second execution of the same scenario.
    expect(result.apis.map((a) => a.url)).toEqual(['http://a.test/1', 'http://a.test/1']);
    expect(result.apis[0]?.headers).toEqual({ A: 'one', B: 'two' });
    expect(warningAt(result, 'scenarios.s.requests[1]')).toMatchObject({ line: 13 });
    expect(warningAt(result, 'execution[1]').message).toMatch(/load \(3 user/);
    expect(result.concurrent_users).toBe(2);
  });

  it('refuses empty text, YAML errors (with their line), non-maps, alias bombs and deep nesting', () => {
    expect(refusal('  \n').message).toBe('Script content is required');
    const syntax = refusal('execution:\n  - scenario: s\n   bad: [\n');
    expect(syntax.line).toBeGreaterThan(0);
    expect(syntax.message).toMatch(/^YAML syntax error at line \d+/);
    expect(refusal('- a\n- b\n').message).toMatch(/not a Taurus configuration/);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
      );
    expect(refusal(bomb.join('\n')).message).toMatch(/alias bomb/);
    expect(refusal(`${'['.repeat(5000)}${']'.repeat(5000)}`).message).toMatch(/nested too deeply/);
  });
});

describe("JMeter's browser settings", () => {
  const script = (settings: string[]) =>
    [
      'execution:',
      '- scenario: s',
      'scenarios:',
      '  s:',
      ...settings.map((line) => `    ${line}`),
      '    requests:',
      '    - http://127.0.0.1:8080/a',
      '',
    ].join('\n');

  it('reads follow-redirects and retrieve-resources turned off, as AnybodyQA writes them, without a warning', () => {
    const result = readTaurusScript(script(['follow-redirects: false', 'retrieve-resources: false']));
    expect(result.warnings).toEqual([]);
    expect(result.apis.map((a) => a.url)).toEqual(['http://127.0.0.1:8080/a']);
  });

  it('warns that a redirect the script would follow is not followed', () => {
    const result = readTaurusScript(script(['follow-redirects: true', 'retrieve-resources: false']));
    expect(warningAt(result, 'scenarios.s.follow-redirects').message).toBe(
      'follow-redirects set how JMeter simulates a browser; the functional runner sends each call as written, so it is skipped',
    );
  });
});
