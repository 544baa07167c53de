import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSandboxHost } from './fetch-host';
import { jsonResponse, noNetwork, noVariables, testRun } from '../../testing/postman-script';
import { runPostmanScript, type SandboxVariables } from './sandbox';

describe('pm.test and pm.expect (real Chai inside the VM)', () => {
  it('passes and fails tests with Chai’s own messages, keeping their order', async () => {
    const out = await runPostmanScript(
      testRun(`
        pm.test("Status code is 200", function () { pm.response.to.have.status(200); });
        pm.test("id is 404?", () => { pm.expect(pm.response.json().id).to.equal(404); });
        pm.test("name", () => { pm.expect(pm.response.json()).to.have.property('name', 'Ada'); });
        pm.test("tags", () => { pm.expect(pm.response.json().tags).to.include('b').and.have.lengthOf(2); });
        pm.test("deep", () => { pm.expect(pm.response.json().address).to.deep.equal({ city: 'Lyon' }); });
        pm.test("throws", () => { throw new TypeError("boom"); });
        pm.test.skip("later", () => { throw new Error("never runs"); });
      `),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.tests).toEqual([
      { name: 'Status code is 200', passed: true },
      { name: 'id is 404?', passed: false, error: 'expected 7 to equal 404' },
      { name: 'name', passed: true },
      { name: 'tags', passed: true },
      { name: 'deep', passed: false, error: "expected { city: 'Paris' } to deeply equal { city: 'Lyon' }" },
      { name: 'throws', passed: false, error: 'boom' },
      { name: 'later', passed: true, skipped: true },
    ]);
  });

  it('reports a failing status with the message Postman gives', async () => {
    const out = await runPostmanScript(
      testRun(
        `pm.test("code", () => pm.expect(pm.response.code).to.equal(200));
         pm.test("status", () => pm.response.to.have.status(200));
         pm.test("ok", () => pm.response.to.be.ok);
         pm.test("success", () => pm.response.to.be.success);
         pm.test("clientError", () => pm.response.to.be.clientError);
         pm.test("notFound", () => pm.response.to.be.notFound);
         pm.test("reason", () => pm.response.to.have.status("Not Found"));`,
        { response: jsonResponse(404, { error: 'no such user' }) },
      ),
      noNetwork,
    );
    expect(out.tests.map((t) => [t.name, t.passed, t.error])).toEqual([
      ['code', false, 'expected 404 to equal 200'],
      ['status', false, 'expected response to have status code 200 but got 404'],
      ['ok', false, "expected response to have status reason 'OK' but got 'NOT FOUND'"],
      ['success', false, 'expected response code to be 2XX but found 404'],
      ['clientError', true, undefined],
      ['notFound', true, undefined],
      ['reason', true, undefined],
    ]);
  });

  it('checks headers, bodies and JSON bodies through pm.response.to', async () => {
    const out = await runPostmanScript(
      testRun(`
        pm.test("has header", () => pm.response.to.have.header("content-type"));
        pm.test("header value", () => pm.response.to.have.header("X-Trace", "abc"));
        pm.test("missing header", () => pm.response.to.have.header("X-Missing"));
        pm.test("get header", () => pm.expect(pm.response.headers.get("x-trace")).to.eql("abc"));
        pm.test("json body", () => pm.response.to.have.jsonBody("address.city", "Paris"));
        pm.test("json body path", () => pm.response.to.have.jsonBody("tags[1]"));
        pm.test("json body wrong", () => pm.response.to.have.jsonBody("address.city", "Rome"));
        pm.test("is json", () => pm.response.to.be.json);
        pm.test("body text", () => pm.response.to.have.body(pm.response.text()));
        pm.test("body regexp", () => pm.response.to.have.body(/"Ada"/));
        pm.test("time", () => pm.expect(pm.response.responseTime).to.be.below(200));
        pm.test("size", () => pm.expect(pm.response.responseSize).to.be.above(10));
      `),
      noNetwork,
    );
    expect(out.tests.filter((t) => !t.passed)).toEqual([
      {
        name: 'missing header',
        passed: false,
        error: "expected response to have header with key 'X-Missing'",
      },
      {
        name: 'json body wrong',
        passed: false,
        error: "expected response body json at \"address.city\" to contain 'Rome' but got 'Paris'",
      },
    ]);
    expect(out.tests).toHaveLength(12);
  });

  it('validates JSON schemas with pm.response.to.have.jsonSchema and tv4', async () => {
    const schema = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } },
    };
    const out = await runPostmanScript(
      testRun(`
        const schema = ${JSON.stringify(schema)};
        pm.test("schema ok", () => pm.response.to.have.jsonSchema(schema));
        pm.test("schema needs email", () => pm.response.to.have.jsonSchema({ ...schema, required: ["email"] }));
        tests["tv4 ok"] = tv4.validate(pm.response.json(), schema);
        tests["tv4 wrong type"] = tv4.validate({ id: "seven", name: "Ada" }, schema);
        console.log(tv4.error.message);
      `),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.tests.map((t) => [t.name, t.passed])).toEqual([
      ['schema ok', true],
      ['schema needs email', false],
      ['tv4 ok', true],
      ['tv4 wrong type', false],
    ]);
    expect(out.tests[1]!.error).toContain("must have required property 'email'");
    expect(out.logs[0]!.text).toContain('data/id must be integer');
  });

  it('runs async test functions to their end', async () => {
    const out = await runPostmanScript(
      testRun(`
        pm.test("later pass", async () => { await null; pm.expect(1).to.equal(1); });
        pm.test("later fail", () => new Promise((_, reject) => setTimeout(() => reject(new Error("too late")), 20)));
      `),
      noNetwork,
    );
    expect(out.tests).toEqual([
      { name: 'later pass', passed: true },
      { name: 'later fail', passed: false, error: 'too late' },
    ]);
  });
});

describe('legacy globals', () => {
  it('reads responseBody, responseCode, responseHeaders and records tests[...]', async () => {
    const out = await runPostmanScript(
      testRun(
        `
        var data = JSON.parse(responseBody);
        tests["Status code is 200"] = responseCode.code === 200;
        tests["Body has Ada"] = responseBody.has("Ada") && responseBody.has(/"id":7/) && !responseBody.has("Bob");
        tests["Name is Bob"] = data.name === "Bob";
        tests["Fast"] = responseTime < 100;
        tests["Header"] = responseHeaders["Content-Type"].indexOf("json") > 0;
        tests["iteration " + iteration] = true;
        postman.setEnvironmentVariable("userId", data.id);
        postman.setGlobalVariable("who", data.name);
        postman.clearEnvironmentVariable("stale");
        tests["read back"] = postman.getEnvironmentVariable("userId") === "7" && environment.stale === undefined;
      `,
        { variables: { ...noVariables(), environment: { stale: 'x' } }, iteration: 2 },
      ),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.tests).toEqual([
      { name: 'Status code is 200', passed: true },
      { name: 'Body has Ada', passed: true },
      { name: 'Name is Bob', passed: false, error: 'expected false to be truthy' },
      { name: 'Fast', passed: true },
      { name: 'Header', passed: true },
      { name: 'iteration 2', passed: true },
      { name: 'read back', passed: true },
    ]);
    expect(out.variables.environment).toEqual({ userId: '7' });
    expect(out.variables.globals).toEqual({ who: 'Ada' });
  });
});

describe('legacy response cookies', () => {
  it('postman.getResponseCookie and responseCookies read the jar a test script is given', async () => {
    const out = await runPostmanScript(
      testRun(
        `
        tests["session"] = postman.getResponseCookie("session").value === "s1";
        tests["none"] = postman.getResponseCookie("Content-Length") === undefined;
        tests["list"] = responseCookies.length === 1 && responseCookies[0].name === "session";
      `,
        { cookies: [{ name: 'session', value: 's1' }] },
      ),
      noNetwork,
    );
    expect(out.tests.filter((t) => !t.passed)).toEqual([]);
    expect(out.tests).toHaveLength(3);
    const bare = await runPostmanScript(
      testRun(
        `tests["no jar"] = postman.getResponseCookie("session") === undefined && responseCookies.length === 0;`,
      ),
      noNetwork,
    );
    expect(bare.tests).toEqual([{ name: 'no jar', passed: true }]);
  });
});

describe('a test script of a request that got no answer', () => {
  it('runs with an empty pm.response and legacy globals, as Newman runs it', async () => {
    const run = testRun(
      `
      tests["code " + pm.response.code] = true;
      tests["text " + typeof pm.response.text()] = true;
      tests["headers " + pm.response.headers.count()] = true;
      tests["legacy " + typeof responseBody + " " + JSON.stringify(responseCode) + " " + JSON.stringify(responseHeaders)] = true;
      try { pm.response.json(); } catch (e) { tests[e.name + ": " + e.message] = true; }
      pm.test("Status code is 200", function () { pm.response.to.have.status(200); });
    `,
    );
    delete run.response;
    const out = await runPostmanScript(run, noNetwork);
    expect(out.error).toBeUndefined();
    expect(out.tests.map((t) => [t.name, t.passed])).toEqual([
      ['Status code is 200', false],
      ['code undefined', true],
      ['text undefined', true],
      ['headers 0', true],
      ['legacy undefined {} {}', true],
      ['JSONError: "undefined" is not valid JSON', true],
    ]);
  });
});

describe('legacy postman.* variables, as postman-sandbox keeps them', () => {
  it('writes through to the environment and globals objects, which pm.* does not', async () => {
    const out = await runPostmanScript(
      testRun(
        `
        tests["before"] = environment.kept === "k" && environment.a === undefined;
        postman.setEnvironmentVariable("a", "x");
        postman.setGlobalVariable("g", "y");
        pm.environment.set("p", "z");
        tests["env set"] = environment.a === "x";
        tests["globals set"] = globals.g === "y";
        tests["pm.environment.set not there"] = environment.p === undefined;
        postman.clearEnvironmentVariable("kept");
        tests["env cleared"] = environment.kept === undefined;
        postman.clearGlobalVariables();
        tests["globals cleared"] = globals.g === undefined && Object.keys(globals).length === 0;
        postman.clearEnvironmentVariables();
        tests["env all cleared"] = Object.keys(environment).length === 0;
      `,
        { variables: { ...noVariables(), environment: { kept: 'k' }, globals: { old: 'o' } } },
      ),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.tests.filter((t) => !t.passed)).toEqual([]);
    expect(out.tests).toHaveLength(7);
    expect(out.variables.environment).toEqual({});
    expect(out.variables.globals).toEqual({});
  });

  it('keeps a value as its toString(), an array as "1,2" and an object as "[object Object]"', async () => {
    const out = await runPostmanScript(
      testRun(
        `
        postman.setEnvironmentVariable("arr", [1, 2]);
        postman.setEnvironmentVariable("obj", { k: 1 });
        postman.setEnvironmentVariable("num", 5);
        postman.setEnvironmentVariable("no", false);
        postman.setGlobalVariable("list", ["a", "b"]);
        tests["read as text"] = environment.arr === "1,2" && postman.getEnvironmentVariable("obj") === "[object Object]";
      `,
      ),
      noNetwork,
    );
    expect(out.tests).toEqual([{ name: 'read as text', passed: true }]);
    expect(out.variables.environment).toEqual({ arr: '1,2', obj: '[object Object]', num: '5', no: 'false' });
    expect(out.variables.globals).toEqual({ list: 'a,b' });
  });
});

describe('variables', () => {
  const variables: SandboxVariables = {
    globals: { host: 'globals', onlyGlobal: 'g' },
    collection: { host: 'collection', base: '{{scheme}}://{{host}}' },
    environment: { host: 'environment', scheme: 'http' },
    data: { host: 'data', user: 'ada' },
    local: {},
  };

  it('resolves pm.variables as Postman does: local > data > environment > collection > globals', async () => {
    const out = await runPostmanScript(
      testRun(
        `
        const seen = [pm.variables.get("host")];
        pm.variables.set("host", "local");
        seen.push(pm.variables.get("host"), pm.variables.get("onlyGlobal"), pm.variables.get("nope"));
        seen.push(pm.iterationData.get("user"), pm.iterationData.has("host"), pm.environment.get("host"));
        seen.push(pm.variables.replaceIn("{{base}}/users/{{user}}?x={{missing}}"));
        console.log(JSON.stringify(seen));
        pm.environment.set("token", "t-1");
        pm.environment.set("count", 3);
        pm.environment.set("obj", { a: 1 });
        pm.collectionVariables.set("c", "v");
        pm.collectionVariables.unset("base");
        pm.globals.clear();
        pm.globals.set("after", "clear");
        console.log(pm.environment.has("token"), JSON.stringify(pm.environment.toObject()));
        `,
        { variables },
      ),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(JSON.parse(out.logs[0]!.text)).toEqual([
      'data',
      'local',
      'g',
      null, // undefined in the VM, null through JSON.stringify
      'ada',
      true,
      'environment',
      'http://local/users/ada?x={{missing}}',
    ]);
    expect(out.logs[1]!.text).toBe(
      'true {"host":"environment","scheme":"http","token":"t-1","count":3,"obj":{"a":1}}',
    );
    expect(out.variables).toEqual({
      globals: { after: 'clear' },
      collection: { host: 'collection', c: 'v' },
      environment: { host: 'environment', scheme: 'http', token: 't-1', count: '3', obj: '{"a":1}' },
      data: { host: 'data', user: 'ada' },
      local: { host: 'local' },
    });
    expect(variables.local).toEqual({}); // the run's input is not mutated
  });

  it('replaces dynamic variables', async () => {
    const out = await runPostmanScript(
      testRun(
        `console.log(pm.variables.replaceIn("{{$guid}}|{{$randomUUID}}|{{$timestamp}}|{{$isoTimestamp}}|{{$randomInt}}"));`,
      ),
      noNetwork,
    );
    const [guid, uuid, ts, iso, int] = out.logs[0]!.text.split('|');
    const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(guid).toMatch(uuidRe);
    expect(uuid).toMatch(uuidRe);
    expect(guid).not.toBe(uuid);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
    expect(Math.abs(Date.parse(iso!) - Date.now())).toBeLessThan(5000);
    expect(Number(int)).toBeGreaterThanOrEqual(0);
    expect(Number(int)).toBeLessThanOrEqual(1000);
  });

  it('gives pm.info and pm.iterationData for the iteration', async () => {
    const out = await runPostmanScript(
      {
        ...testRun(
          `console.log(pm.info.eventName, pm.info.iteration, pm.info.iterationCount, pm.info.requestName, data.user);
           pm.iterationData.set("x", 1);`,
        ),
        event: 'prerequest',
        response: undefined,
        variables,
        iteration: 3,
        iterationCount: 5,
      },
      noNetwork,
    );
    expect(out.logs).toEqual([{ level: 'log', text: 'prerequest 3 5 Get user ada' }]);
    expect(out.error).toMatchObject({
      kind: 'runtime',
      message: 'TypeError: pm.iterationData is read-only',
      line: 2,
    });
  });
});

describe('pre-request scripts', () => {
  it('change the request’s url, method, headers and body', async () => {
    const out = await runPostmanScript(
      {
        event: 'prerequest',
        source: `
          pm.request.headers.add({ key: "X-Request-Id", value: pm.variables.replaceIn("{{$guid}}") });
          pm.request.headers.upsert({ key: "Accept", value: "application/json" });
          pm.request.headers.remove("X-Old");
          pm.request.url.query.upsert({ key: "page", value: "2" });
          pm.request.method = "post";
          pm.request.body.update(JSON.stringify({ ts: 1 }));
          console.log(pm.request.url.getHost(), pm.request.url.getPath(), pm.request.headers.get("accept"));
        `,
        request: {
          name: 'Create',
          method: 'GET',
          url: 'http://127.0.0.1:1/items?page=1&q=x',
          headers: [
            { key: 'accept', value: '*/*' },
            { key: 'X-Old', value: '1' },
          ],
          body: '',
        },
        variables: noVariables(),
        iteration: 0,
        iterationCount: 1,
      },
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.logs[0]!.text).toBe('127.0.0.1 /items application/json');
    expect(out.request.url).toBe('http://127.0.0.1:1/items?page=2&q=x');
    expect(out.request.method).toBe('POST');
    expect(out.request.body).toBe('{"ts":1}');
    expect(out.request.headers.map((h) => h.key)).toEqual(['accept', 'X-Request-Id']);
    expect(out.request.headers[0]!.value).toBe('application/json');
    expect(out.request.headers[1]!.value).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('may replace the url with a string', async () => {
    const out = await runPostmanScript(
      {
        ...testRun(`pm.request.url = pm.request.url.toString().replace("/users/7", "/users/8");`),
        event: 'prerequest',
        response: undefined,
      },
      noNetwork,
    );
    expect(out.request.url).toBe('http://127.0.0.1:1/users/8?expand=1');
  });
});

describe('setNextRequest', () => {
  it('is absent when not called, a name or null when called', async () => {
    const none = await runPostmanScript(testRun(`pm.test("x", () => {})`), noNetwork);
    expect('nextRequest' in none).toBe(false);
    const named = await runPostmanScript(testRun(`postman.setNextRequest("Delete user")`), noNetwork);
    expect(named.nextRequest).toBe('Delete user');
    const stop = await runPostmanScript(testRun(`pm.execution.setNextRequest(null)`), noNetwork);
    expect(stop.nextRequest).toBeNull();
  });
});

describe('errors', () => {
  it('reports a syntax error with its line and no tests', async () => {
    const out = await runPostmanScript(testRun(`pm.test("a", () => {});\n\nvar x = ;\n`), noNetwork);
    expect(out.error).toMatchObject({ kind: 'syntax', line: 3 });
    expect(out.error!.message).toMatch(/^SyntaxError: /);
    expect(out.tests).toEqual([]);
  });

  it('reports an uncaught exception with its line, keeping the tests that ran before it', async () => {
    const out = await runPostmanScript(
      testRun(`pm.test("before", () => pm.response.to.have.status(200));
pm.environment.set("set", "before");
const body = pm.response.json();
body.missing.field;
pm.test("after", () => {});`),
      noNetwork,
    );
    expect(out.error).toEqual({
      kind: 'runtime',
      message: "TypeError: Cannot read properties of undefined (reading 'field')",
      line: 4,
    });
    expect(out.tests).toEqual([{ name: 'before', passed: true }]);
    expect(out.variables.environment).toEqual({ set: 'before' });
  });

  it('reports an error after a top-level await with its line, and keeps Chai’s own `ok` for other values', async () => {
    const out = await runPostmanScript(
      testRun(`pm.test("ok value", () => pm.expect(1).to.be.ok);
pm.test("not ok value", () => pm.expect(0).to.be.ok);
await new Promise((resolve) => setTimeout(resolve, 10));
undefinedThing();`),
      noNetwork,
    );
    expect(out.tests).toEqual([
      { name: 'ok value', passed: true },
      { name: 'not ok value', passed: false, error: 'expected +0 to be truthy' },
    ]);
    expect(out.error).toEqual({
      kind: 'runtime',
      message: 'ReferenceError: undefinedThing is not defined',
      line: 4,
    });
  });

  it('names what the sandbox does not have', async () => {
    const out = await runPostmanScript(testRun(`var $ = cheerio.load("<p>x</p>");`), noNetwork);
    expect(out.error).toMatchObject({ kind: 'runtime', line: 1 });
    expect(out.error!.message).toContain('cheerio is not available in the AnybodyQA Postman sandbox');
  });

  it('names the pm features the sandbox leaves out, and reports a thrown non-Error value', async () => {
    const cookies = await runPostmanScript(testRun(`\npm.cookies.get("session");`), noNetwork);
    expect(cookies.error).toMatchObject({ kind: 'runtime', line: 2 });
    expect(cookies.error!.message).toContain('pm.cookies is not available in the AnybodyQA Postman sandbox');
    const thrown = await runPostmanScript(testRun(`throw "plain text";`), noNetwork);
    expect(thrown.error).toEqual({ kind: 'runtime', message: 'plain text' });
  });

  it('stops a script that loops forever at its time limit', async () => {
    const started = Date.now();
    const out = await runPostmanScript(
      testRun(`pm.test("first", () => {}); console.log("looping"); while (true) {}`),
      noNetwork,
      { timeMs: 300 },
    );
    const took = Date.now() - started;
    expect(out.error).toEqual({ kind: 'timeout', message: 'the script ran past its time limit of 300 ms' });
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(300 + 500);
    expect(out.tests).toEqual([{ name: 'first', passed: true }]);
    expect(out.logs).toEqual([{ level: 'log', text: 'looping' }]);
  });

  it('stops a loop inside a test function at the default limit of 1,000 ms', async () => {
    const started = Date.now();
    const out = await runPostmanScript(testRun(`pm.test("spin", () => { for (;;) {} });`), noNetwork);
    expect(out.error?.kind).toBe('timeout');
    expect(out.error?.message).toBe('the script ran past its time limit of 1000 ms');
    expect(Date.now() - started).toBeLessThan(1_000 + 500);
  });

  it('stops a script that allocates past its memory limit', async () => {
    const out = await runPostmanScript(
      testRun(`pm.test("first", () => {});
        const kept = [], mb = "x".repeat(1 << 20);
        for (let i = 0; ; i++) kept.push(mb + i);`),
      noNetwork,
      { memoryBytes: 16 * 1024 * 1024, timeMs: 10_000 },
    );
    expect(out.error?.kind).toBe('memory');
    expect(out.error?.message).toMatch(/^the script went past its memory limit of 16 MB/);
    expect(out.tests).toEqual([{ name: 'first', passed: true }]);
  });

  it('stops a script that builds a huge string', async () => {
    const out = await runPostmanScript(testRun(`let s = "x"; while (true) s += s;`), noNetwork, {
      timeMs: 10_000,
    });
    expect(out.error?.kind).toBe('memory');
  });

  it('bounds console output', async () => {
    const out = await runPostmanScript(
      testRun(`for (let i = 0; i < 500; i++) console.warn("line " + i + " " + "x".repeat(5000));`),
      noNetwork,
    );
    expect(out.logs).toHaveLength(100);
    expect(out.logs[0]!.level).toBe('warn');
    expect(out.logs[0]!.text.length).toBeLessThanOrEqual(2_049);
  });
});

describe('isolation from Node', () => {
  it('shows a script nothing of Node: no require, process, module, or escape through constructors', async () => {
    const out = await runPostmanScript(
      testRun(`
        pm.test("no process", () => pm.expect(typeof process).to.equal("undefined"));
        pm.test("no module", () => pm.expect(typeof module + typeof exports + typeof __dirname).to.equal("undefinedundefinedundefined"));
        pm.test("no require", () => { require("fs"); });
        pm.test("constructor escape", () => {
          const p = globalThis.constructor.constructor("return typeof process")();
          pm.expect(p).to.equal("undefined");
        });
        pm.test("escape through a host function", () => {
          const F = pm.test.constructor;
          pm.expect(F("return typeof process + typeof fetch + typeof WebAssembly")()).to.equal("undefinedundefinedundefined");
        });
        pm.test("no host bridge left", () => pm.expect(typeof __aqaHost + typeof __aqaSetup).to.equal("undefinedundefined"));
        globalThis.constructor.constructor("return process")();
      `),
      noNetwork,
    );
    expect(out.tests.map((t) => [t.name, t.passed])).toEqual([
      ['no process', true],
      ['no module', true],
      ['no require', false],
      ['constructor escape', true],
      ['escape through a host function', true],
      ['no host bridge left', true],
    ]);
    expect(out.tests[2]!.error).toContain("require('fs') is not available");
    expect(out.error).toMatchObject({ kind: 'runtime', message: 'ReferenceError: process is not defined' });
  });
});

describe('pm.sendRequest against a real server', () => {
  let server: Server;
  let base: string;
  const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 2_000);
          return;
        }
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ path: req.url, method: req.method, body, n: received.length }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('performs requests through the host and runs their callbacks in the VM', async () => {
    received.length = 0;
    const out = await runPostmanScript(
      testRun(`
        pm.sendRequest("${base}/token", function (err, res) {
          pm.test("token call", () => {
            pm.expect(err).to.equal(null);
            pm.expect(res.code).to.equal(200);
            pm.expect(res.json().path).to.equal("/token");
          });
          pm.environment.set("token", "T" + res.json().n);
          pm.sendRequest({
            url: "${base}/login",
            method: "POST",
            header: { "Content-Type": "application/json", "X-Token": pm.environment.get("token") },
            body: { mode: "raw", raw: JSON.stringify({ user: "ada" }) }
          }, function (err2, res2) {
            pm.test("login call", () => pm.expect(res2.json()).to.include({ method: "POST", body: '{"user":"ada"}' }));
            res2.to.have.status(200);
          });
        });
      `),
      fetchSandboxHost(),
    );
    expect(out.error).toBeUndefined();
    expect(out.tests).toEqual([
      { name: 'token call', passed: true },
      { name: 'login call', passed: true },
    ]);
    expect(received.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/token'],
      ['POST', '/login'],
    ]);
    expect(received[1]!.headers['x-token']).toBe('T1');
    expect(out.variables.environment).toEqual({ token: 'T1' });
  });

  it('supports await pm.sendRequest and reports a connection error to the callback', async () => {
    received.length = 0;
    const out = await runPostmanScript(
      testRun(`
        const res = await pm.sendRequest({ url: "${base}/a", method: "PUT", body: "raw text" });
        pm.test("awaited", () => pm.expect(res.json()).to.include({ path: "/a", method: "PUT", body: "raw text" }));
        pm.sendRequest("http://127.0.0.1:1/refused", (err, r) => {
          pm.test("refused", () => { pm.expect(r).to.equal(null); pm.expect(err.message).to.match(/fetch failed/); });
        });
      `),
      fetchSandboxHost(),
    );
    expect(out.error).toBeUndefined();
    expect(out.tests).toEqual([
      { name: 'awaited', passed: true },
      { name: 'refused', passed: true },
    ]);
    expect(received.map((r) => r.url)).toEqual(['/a']);
  });

  it('stops waiting for a request at the script’s time limit', async () => {
    received.length = 0;
    const started = Date.now();
    const out = await runPostmanScript(
      testRun(`pm.sendRequest("${base}/slow", () => pm.test("never", () => {}));`),
      fetchSandboxHost(),
      { timeMs: 400 },
    );
    expect(out.error?.kind).toBe('timeout');
    expect(out.tests).toEqual([]);
    expect(Date.now() - started).toBeLessThan(400 + 500);
    expect(received.map((r) => r.url)).toEqual(['/slow']);
  });
});
