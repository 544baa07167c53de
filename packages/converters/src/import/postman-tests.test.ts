import { FunctionalValidationSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { readTestScript, type TestScriptReading } from './postman-tests';

const rulesOf = (source: string) => {
  const read = readTestScript(source);
  if (read.kind !== 'rules') throw new Error(`not mapped: ${JSON.stringify(read)}`);
  return read;
};
const rule = (name: string, type: string, expected: string, more: Record<string, unknown> = {}) =>
  FunctionalValidationSchema.parse({ name, type, expected_value: expected, ...more });
const kindOf = (read: TestScriptReading) => read.kind;

describe('readTestScript: tests that map become rules named as the test', () => {
  it('maps pm.test status idioms to status_code', () => {
    const read = rulesOf(`
pm.test("Status code is 200", function () {
    pm.response.to.have.status(200);
});
pm.test('expect response be 200', function () {
    pm.response.to.be.ok
})
pm.test("Created", () => pm.expect(pm.response.code).to.eql(201));
pm.test("Accepted", () => { pm.expect(pm.response.code).to.be.oneOf([200, 202]); });`);
    expect(read.rules).toEqual([
      rule('Status code is 200', 'status_code', '200'),
      rule('expect response be 200', 'status_code', '2xx'),
      rule('Created', 'status_code', '201'),
      rule('Accepted', 'status_code', '200, 202'),
    ]);
    expect(read.tests.map((t) => [t.name, t.line])).toEqual([
      ['Status code is 200', 2],
      ['expect response be 200', 5],
      ['Created', 8],
      ['Accepted', 9],
    ]);
  });

  it('maps JSON values and existence, through a jsonData alias or pm.response.json()', () => {
    const read = rulesOf(`var jsonData = pm.response.json();
pm.test("Token is returned", function () {
    pm.expect(jsonData.token).to.exist;
    pm.expect(jsonData.user.name).to.eql("Ada");
});
pm.test("Count", function () {
    pm.expect(pm.response.json().items[0].count).to.equal(3);
    pm.expect(jsonData['first name']).to.eql('Ada L');
    pm.expect(jsonData.active).to.be.true;
    pm.expect(jsonData.deleted).to.not.exist;
});`);
    expect(read.rules).toEqual([
      rule('Token is returned', 'json_path', '$.token'),
      rule('Token is returned', 'json_path', '$.user.name == "Ada"'),
      rule('Count', 'json_path', '$.items[0].count == 3'),
      rule('Count', 'json_path', `$['first name'] == "Ada L"`),
      rule('Count', 'json_path', '$.active == true'),
      rule('Count', 'json_path', '$.deleted', { negate: true }),
    ]);
    expect(read.tests).toHaveLength(2);
  });

  it('maps headers, body text, response time and a literal JSON schema', () => {
    const read =
      rulesOf(`const schema = { type: "object", required: ["id"], properties: { id: { type: "integer" } } };
pm.test("Content-Type is present", function () {
    pm.response.to.have.header("Content-Type");
});
pm.test("JSON answer", function () {
    pm.expect(pm.response.headers.get('Content-Type')).to.include('application/json');
    pm.expect(pm.response.headers.get('X-Request-Id')).to.eql('abc');
});
pm.test("Body matches string", function () {
    pm.expect(pm.response.text()).to.include("string_you_want_to_search");
});
pm.test("Response time is less than 200ms", function () {
    pm.expect(pm.response.responseTime).to.be.below(200);
});
pm.test("Schema is valid", function () {
    pm.response.to.have.jsonSchema(schema);
});`);
    expect(read.rules).toEqual([
      rule('Content-Type is present', 'regex', '(?im)^Content\\-Type:', { subject: 'headers' }),
      rule('JSON answer', 'regex', '(?im)^Content\\-Type:.*application\\/json', { subject: 'headers' }),
      rule('JSON answer', 'header_value', 'X-Request-Id: abc'),
      rule('Body matches string', 'contains_text', 'string_you_want_to_search'),
      rule('Response time is less than 200ms', 'response_time', '199'),
      rule(
        'Schema is valid',
        'schema',
        '{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}}',
      ),
    ]);
  });

  it('maps legacy tests[...] = as rules named by the key (echo-v2 idioms)', () => {
    const read = rulesOf(`tests["response code is 200"] = responseCode.code === 200;
tests["Body contains cookies"] = responseBody.has("cookies");
var body = JSON.parse(responseBody);
tests["Body contains status pass"] = body["status"] == "pass"
tests["Body contains cookie foo1"] = 'foo1' in body.cookies;
tests["Body does not contain cookie foo2"] = !('foo2' in body.cookies);
tests["Response time is less than 200ms"] = responseTime < 200;
tests['response is chunked'] = (postman.getResponseHeader('Transfer-Encoding') === 'chunked');`);
    expect(read.rules).toEqual([
      rule('response code is 200', 'status_code', '200'),
      rule('Body contains cookies', 'contains_text', 'cookies'),
      rule('Body contains status pass', 'json_path', '$.status == "pass"'),
      rule('Body contains cookie foo1', 'json_path', '$.cookies.foo1'),
      rule('Body does not contain cookie foo2', 'json_path', '$.cookies.foo2', { negate: true }),
      rule('Response time is less than 200ms', 'response_time', '199'),
      rule('response is chunked', 'header_value', 'Transfer-Encoding: chunked'),
    ]);
  });

  it('maps a token set from the response to a capture, beside the tests', () => {
    const read = rulesOf(`var jsonData = JSON.parse(responseBody);
postman.setEnvironmentVariable("token", jsonData.token);
pm.environment.set("order_id", pm.response.json().order.id);
pm.collectionVariables.set("etag", pm.response.headers.get("ETag"));
pm.globals.set("first", jsonData.items[0].id);
pm.test("Status code is 200", () => pm.response.to.have.status(200));`);
    expect(read.captures).toEqual([
      { name: 'token', from: 'json_path', expression: '$.token' },
      { name: 'order_id', from: 'json_path', expression: '$.order.id' },
      { name: 'etag', from: 'header', expression: 'ETag' },
      { name: 'first', from: 'json_path', expression: '$.items[0].id' },
    ]);
    expect(read.rules).toEqual([rule('Status code is 200', 'status_code', '200')]);
  });

  it('maps jsonBody, body and header presence (hawk-auth-test, inherited-entities idioms)', () => {
    const read = rulesOf(`pm.test('should authenticate correctly', function () {
 pm.response.to.have.jsonBody('message', 'Hawk Authentication Successful');
 pm.response.to.have.jsonBody('user.id');
});
pm.test('exact body', () => { pm.response.to.have.body('pong'); });
pm.test('no auth echoed', function () {
  pm.response.to.have.status(401);
  pm.expect(pm.response.headers.has('Authorization')).to.equal(false);
});`);
    expect(read.rules).toEqual([
      rule('should authenticate correctly', 'json_path', '$.message == "Hawk Authentication Successful"'),
      rule('should authenticate correctly', 'json_path', '$.user.id'),
      rule('exact body', 'equals', 'pong', { subject: 'body' }),
      rule('no auth echoed', 'status_code', '401'),
      rule('no auth echoed', 'regex', '(?im)^Authorization:', { subject: 'headers', negate: true }),
    ]);
  });

  it('keeps a {{variable}} in an expected value as written', () => {
    expect(
      rulesOf(`pm.test("echo", () => pm.expect(pm.response.json().id).to.eql("{{order_id}}"));`).rules,
    ).toEqual([rule('echo', 'json_path', '$.id == "{{order_id}}"')]);
  });
});

describe('readTestScript: a script that does not map is kept whole', () => {
  it.each([
    // A statement that is no test (nested-folders.json, multi-level-folders).
    [
      'a counter in the environment',
      `var count = parseInt(postman.getEnvironmentVariable("count"));
tests["Status code is 200"] = responseCode.code === 200;
postman.setEnvironmentVariable("count", count + 1);`,
      1,
    ],
    // One test maps and one does not: never half of it.
    [
      'a chained assertion',
      `pm.test('ok', function () { pm.response.to.be.ok })
pm.test('args', function () {
    pm.expect(pm.response.json().args).to.have.property('source').and.equal('newman-sample-github-collection')
})`,
      2,
    ],
    [
      'a value from a variable',
      `pm.test("id", () => pm.expect(pm.response.json().id).to.eql(pm.environment.get("id")));`,
      1,
    ],
    [
      'try/catch',
      `try { var d = JSON.parse(responseBody); tests["has d"] = responseBody.has("d"); } catch (e) {}`,
      1,
    ],
    [
      'tests inside pm.sendRequest',
      `pm.sendRequest("https://postman-echo.com/get", function (err, res) {
    pm.test("inner", function () { pm.expect(res.code).to.eql(200); });
});`,
      1,
    ],
    [
      'a length check',
      `var d = pm.response.json(); pm.test("n", () => pm.expect(d.items.length).to.eql(3));`,
      1,
    ],
    ['a loose numeric comparison', `var d = JSON.parse(responseBody); tests["n"] = d.n == 10;`, 1],
    ['an empty test', `pm.test("nothing", function () {});`, 1],
  ])('%s', (_what, source, tests) => {
    const read = readTestScript(source);
    expect(kindOf(read)).toBe('script');
    expect(read.kind === 'script' && read.tests.length).toBe(tests);
  });

  it('counts the tests of a pre-request script, which always runs as it is', () => {
    const read = readTestScript(
      `pm.test("CSV parsing tests", function () {\n  pm.expect(data.a).to.eql('x');\n});`,
      'prerequest',
    );
    expect(read).toMatchObject({ kind: 'script', tests: [{ name: 'CSV parsing tests', line: 1 }] });
    expect(readTestScript('  // nothing\n', 'prerequest').kind).toBe('empty');
  });

  it('leaves out a script that cannot run, naming the line of each test', () => {
    const broken = readTestScript(
      `pm.test("a", function () {\n  pm.response.to.have.status(200);\n\ntests["b"] = responseBody.has("x"`,
    );
    expect(broken).toMatchObject({
      kind: 'left_out',
      tests: [
        { name: 'a', line: 1 },
        { name: 'b', line: 4 },
      ],
    });
    expect(broken.kind === 'left_out' && broken.reason).toMatch(
      /not JavaScript that can run: Unexpected token/,
    );
    const long = readTestScript(`tests["big"] = responseBody.has("x");\n//${'x'.repeat(100_000)}`);
    expect(long).toMatchObject({ kind: 'left_out', tests: [{ name: 'big', line: 1 }] });
    expect(long.kind === 'left_out' && long.reason).toMatch(/over the 100,000 a script may hold/);
  });

  it('reads any text without throwing: every cut of a real script is empty, rules, a script or left out', () => {
    const source = `var jsonData = pm.response.json();
pm.test("Status code is 200", function () { pm.response.to.have.status(200); });
tests["Body contains status pass"] = jsonData["status"] == "pass";
pm.environment.set("token", jsonData.token);
pm.expect(pm.response.headers.get('Content-Type')).to.include('json');`;
    for (let end = 0; end <= source.length; end++) {
      const read = readTestScript(source.slice(0, end));
      expect(['empty', 'rules', 'script', 'left_out']).toContain(read.kind);
    }
  });

  it('never runs the script it reads', () => {
    const g = globalThis as { pwned?: boolean };
    readTestScript(`globalThis.pwned = true; pm.test("x", () => { globalThis.pwned = true; });`);
    expect(g.pwned).toBeUndefined();
  });
});
