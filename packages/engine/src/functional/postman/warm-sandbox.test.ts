import { afterEach, describe, expect, it } from 'vitest';
import { liveSandboxVms } from './quickjs-vm';
import { noNetwork, noVariables, testRun } from '../../testing/postman-script';
import type { SandboxHost } from './sandbox-types';
import { PostmanSandbox } from './warm-sandbox';

/*
 * One virtual user's warm sandbox: one QuickJS VM for all its scripts, each script starting from the
 * same globals, a VM that hit a limit replaced, and every VM freed (docs/adr/0028-postman-sandbox.md §1
 * "One warm VM per virtual user"). Real QuickJS, no mock.
 */

const made: PostmanSandbox[] = [];
function sandbox(limits?: ConstructorParameters<typeof PostmanSandbox>[0]): PostmanSandbox {
  const s = new PostmanSandbox(limits);
  made.push(s);
  return s;
}
afterEach(() => {
  for (const s of made.splice(0)) s.dispose();
  expect(liveSandboxVms()).toBe(0);
});

describe('consecutive scripts of one user', () => {
  it('run in one VM, each from the same globals: what a script assigned or declared is gone for the next', async () => {
    const s = sandbox();
    const first = await s.run(
      testRun(`
        leaked = 1;
        var declared = 2;
        const jsonData = pm.response.json();
        function helper() { return 3; }
        globalThis.viaGlobal = 4;
        console.log = function () {};
        Math = {};
        parseInt = function () { return -1; };
        tests["first"] = true;
        pm.test("sees its own", () => pm.expect(leaked + declared + helper() + viaGlobal).to.equal(10));
      `),
      noNetwork,
    );
    expect(first.error).toBeUndefined();
    expect(liveSandboxVms()).toBe(1);
    const second = await s.run(
      testRun(`
        const jsonData = pm.response.json();
        pm.test("none leaked", () => {
          pm.expect([typeof leaked, typeof declared, typeof helper, typeof viaGlobal]).to.eql(
            ["undefined", "undefined", "undefined", "undefined"]);
        });
        pm.test("built-ins put back", () => pm.expect([Math.max(1, 2), parseInt("7")]).to.eql([2, 7]));
        console.log("logged", jsonData.id);
      `),
      noNetwork,
    );
    expect(liveSandboxVms()).toBe(1);
    expect(second).toEqual({
      tests: [
        { name: 'none leaked', passed: true },
        { name: 'built-ins put back', passed: true },
      ],
      variables: noVariables(),
      request: { name: 'Get user', method: 'GET', url: 'http://127.0.0.1:1/users/7?expand=1', headers: [] },
      logs: [{ level: 'log', text: 'logged 7' }],
    });
  });

  it('give each script its own variables, request, tests and pm', async () => {
    const s = sandbox();
    const pre = await s.run(
      testRun(
        `pm.environment.set("token", "t-1"); pm.variables.set("local", "l"); pm.request.headers.add({ key: "X-A", value: "1" });
         postman.setNextRequest("next"); pm.test("pre", () => {});`,
        { event: 'prerequest' },
      ),
      noNetwork,
    );
    expect(pre.variables.environment).toEqual({ token: 't-1' });
    expect(pre.request.headers).toEqual([{ key: 'X-A', value: '1' }]);
    expect(pre.nextRequest).toBe('next');
    // The caller carries the variables to the next script, as the functional runner does.
    const test = await s.run(
      testRun(
        `pm.test("token", () => pm.expect(pm.environment.get("token")).to.equal("t-1"));
         pm.test("no pre-request state", () => {
           pm.expect(pm.request.headers.count()).to.equal(0);
           pm.expect(pm.variables.get("local")).to.equal(undefined);
         });`,
        { variables: { ...noVariables(), environment: pre.variables.environment } },
      ),
      noNetwork,
    );
    expect(test.tests).toEqual([
      { name: 'token', passed: true },
      { name: 'no pre-request state', passed: true },
    ]);
    expect(test.nextRequest).toBeUndefined();
    // A test script's legacy globals are not left for a pre-request script.
    const after = await s.run(
      testRun(
        `pm.test("no response here", () => pm.expect(typeof responseBody + typeof pm.response).to.equal("undefinedundefined"));`,
        {
          event: 'prerequest',
        },
      ),
      noNetwork,
    );
    expect(after.tests).toEqual([{ name: 'no response here', passed: true }]);
  });

  it('keep a late test result of a former script out of the next one', async () => {
    const s = sandbox();
    // The first script leaves a pending test whose promise a later script settles (through a
    // prototype, which a script of the same VM does see: docs/adr/0028-postman-sandbox.md §1).
    await s.run(
      testRun(
        `pm.test("never settled here", () => new Promise((resolve) => { Array.prototype.settle = resolve; }));`,
      ),
      noNetwork,
    );
    const second = await s.run(testRun(`[].settle(); pm.test("own", () => {});`), noNetwork);
    expect(second.tests).toEqual([{ name: 'own', passed: true }]);
  });

  it('report errors with their lines as a fresh VM does, and the VM goes on', async () => {
    const s = sandbox();
    const syntax = await s.run(testRun(`pm.test("a", () => {});\n\nvar x = ;\n`), noNetwork);
    expect(syntax.error).toMatchObject({ kind: 'syntax', line: 3 });
    const runtime = await s.run(testRun(`pm.test("a", () => {});\nnope();`), noNetwork);
    expect(runtime.error).toEqual({
      kind: 'runtime',
      message: 'ReferenceError: nope is not defined',
      line: 2,
    });
    const awaited = await s.run(
      testRun(`await new Promise((r) => setTimeout(r, 5));\npm.test("after await", () => {});`),
      noNetwork,
    );
    expect(awaited.tests).toEqual([{ name: 'after await', passed: true }]);
    expect(awaited.error).toBeUndefined();
    expect(liveSandboxVms()).toBe(1);
  });
});

describe('a VM that stopped at a limit', () => {
  it('is disposed of after a time-out, and the next script of the user runs in a fresh one', async () => {
    const s = sandbox({ timeMs: 200 });
    await s.run(testRun(`marker = 1;`), noNetwork);
    const stuck = await s.run(testRun(`pm.test("first", () => {}); while (true) {}`), noNetwork);
    expect(stuck.error).toEqual({ kind: 'timeout', message: 'the script ran past its time limit of 200 ms' });
    expect(stuck.tests).toEqual([{ name: 'first', passed: true }]);
    expect(liveSandboxVms()).toBe(0);
    const next = await s.run(
      testRun(
        `pm.test("works", () => pm.response.to.have.status(200)); pm.test("fresh", () => pm.expect(typeof marker).to.equal("undefined"));`,
      ),
      noNetwork,
    );
    expect(next.tests).toEqual([
      { name: 'works', passed: true },
      { name: 'fresh', passed: true },
    ]);
    expect(liveSandboxVms()).toBe(1);
  });

  it('is disposed of after its memory limit, and the next script runs', async () => {
    const s = sandbox({ memoryBytes: 16 * 1024 * 1024, timeMs: 10_000 });
    const full = await s.run(
      testRun(`const kept = [], mb = "x".repeat(1 << 20); for (let i = 0; ; i++) kept.push(mb + i);`),
      noNetwork,
    );
    expect(full.error?.kind).toBe('memory');
    expect(liveSandboxVms()).toBe(0);
    const next = await s.run(testRun(`pm.test("ok", () => pm.response.to.be.ok);`), noNetwork);
    expect(next.tests).toEqual([{ name: 'ok', passed: true }]);
  });

  it('is replaced when a script makes a global that cannot be removed', async () => {
    const s = sandbox();
    await s.run(testRun(`Object.defineProperty(globalThis, "stuck", { value: 1 });`), noNetwork);
    expect(liveSandboxVms()).toBe(0);
    const next = await s.run(
      testRun(`pm.test("gone", () => pm.expect(typeof stuck).to.equal("undefined"));`),
      noNetwork,
    );
    expect(next.tests).toEqual([{ name: 'gone', passed: true }]);
  });
});

describe('two users', () => {
  it('never share a VM: a prototype one user changes is not the other s', async () => {
    const a = sandbox();
    const b = sandbox();
    const count = `Array.prototype.count = (Array.prototype.count || 0) + 1; pm.test("count " + [].count, () => {});`;
    const names = async (s: PostmanSandbox) => (await s.run(testRun(count), noNetwork)).tests[0]!.name;
    expect([await names(a), await names(a), await names(b), await names(a), await names(b)]).toEqual([
      'count 1',
      'count 2',
      'count 1',
      'count 3',
      'count 2',
    ]);
    expect(liveSandboxVms()).toBe(2);
  });
});

describe('disposal', () => {
  it('frees the VM; many scripts over many users leave none behind', async () => {
    const users = Array.from({ length: 5 }, () => new PostmanSandbox());
    for (let i = 0; i < 4; i++) {
      const outs = await Promise.all(
        users.map((s) =>
          s.run(testRun(`pm.test("ok", () => pm.expect(pm.response.json().id).to.eql(7));`), noNetwork),
        ),
      );
      expect(outs.every((o) => o.tests[0]!.passed)).toBe(true);
      expect(liveSandboxVms()).toBe(5);
    }
    for (const s of users) s.dispose();
    expect(liveSandboxVms()).toBe(0);
  });

  it('waits for a script in flight, then frees its VM; a disposed sandbox runs nothing', async () => {
    const s = new PostmanSandbox();
    const slowHost: SandboxHost = {
      sendRequest: async () => {
        await new Promise((r) => setTimeout(r, 50));
        return { code: 200, status: 'OK', headers: [], body: '{}', responseTime: 50, responseSize: 2 };
      },
    };
    const running = s.run(
      testRun(
        `pm.sendRequest("http://127.0.0.1:1/x", (err, res) => pm.test("sent", () => pm.expect(res.code).to.equal(200)));`,
      ),
      slowHost,
    );
    await new Promise((r) => setTimeout(r, 10));
    s.dispose();
    expect(liveSandboxVms()).toBe(1);
    expect((await running).tests).toEqual([{ name: 'sent', passed: true }]);
    expect(liveSandboxVms()).toBe(0);
    await expect(s.run(testRun(`1`), noNetwork)).rejects.toThrow(/disposed/);
    expect(liveSandboxVms()).toBe(0);
  });
});

describe('a script that recurses past the stack', () => {
  it("fails with V8's words, keeps its earlier tests, and the user's next script runs in a fresh VM", async () => {
    const s = sandbox();
    // QuickJS's own check catches a recursing function; nesting JSON.stringify deep enough runs the
    // thread's stack out first (a host RangeError out of the WebAssembly call): both end the same way.
    for (const overflow of [
      'function f() { return f() + 1; } f();',
      'var a = []; for (var i = 0; i < 100000; i++) a = [a]; JSON.stringify(a);',
    ]) {
      const out = await s.run(testRun(`pm.test("before", function () {});\n${overflow}`), noNetwork);
      expect(out.tests.map((t) => [t.name, t.passed])).toEqual([['before', true]]);
      expect(out.error?.message).toMatch(
        /^(RangeError: Maximum call stack size exceeded|InternalError: stack overflow)/,
      );
      const next = await s.run(testRun(`pm.test("after " + _.VERSION, function () {});`), noNetwork);
      expect(next.error).toBeUndefined();
      expect(next.tests.map((t) => t.name)).toEqual(['after 3.10.2']);
    }
  });
});

describe("the libraries Postman's sandbox gives", () => {
  it('loads lodash 3 as _, lodash 4, crypto-js and moment by require, once per VM, not counting their load against the script', async () => {
    const s = sandbox({ timeMs: 1_000 });
    const out = await s.run(
      testRun(`
        pm.test("_ " + _.VERSION, function () { pm.expect(_.pluck([{ a: 1 }, { a: 2 }], "a")).to.eql([1, 2]); });
        pm.test("lodash " + require("lodash").VERSION, function () {});
        pm.test("hmac", function () {
          pm.expect(CryptoJS.HmacSHA256("msg", "key").toString(CryptoJS.enc.Base64)).to.equal("LZPLwb4We8sWN6SiPL/wGnh48MUO6DOVTqUiG7G4xig=");
        });
        pm.test("same module", function () { pm.expect(require("crypto-js")).to.equal(CryptoJS); });
        pm.test("moment", function () { pm.expect(require("moment")("2020-01-02T03:04:05Z").utc().format("YYYY-MM-DD")).to.equal("2020-01-02"); });
      `),
      noNetwork,
    );
    expect(out.error).toBeUndefined();
    expect(out.tests.map((t) => [t.name, t.passed])).toEqual([
      ['_ 3.10.2', true],
      ['lodash 4.17.21', true],
      ['hmac', true],
      ['same module', true],
      ['moment', true],
    ]);
    // The next script of the VM finds them loaded; a script may still shadow _ for itself only.
    const again = await s.run(testRun(`var _ = 1; pm.test("mine " + _, function () {});`), noNetwork);
    expect(again.tests.map((t) => t.name)).toEqual(['mine 1']);
    const third = await s.run(testRun(`pm.test("theirs " + _.VERSION, function () {});`), noNetwork);
    expect(third.tests.map((t) => t.name)).toEqual(['theirs 3.10.2']);
    const missing = await s.run(testRun(`require("cheerio");`), noNetwork);
    expect(missing.error?.message).toContain(
      "require('cheerio') is not available in the AnybodyQA Postman sandbox",
    );
  });
});
