import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchSandboxHost } from './fetch-host';
import { runPostmanScript, type SandboxResponse, type ScriptTest } from './sandbox';

/*
 * The same test scripts run by real Newman (6.x, with postman-sandbox) and by our sandbox against the same
 * local server: each test's name, pass or fail, and failure message must match
 * (docs/adr/0028-postman-sandbox.md §2).
 */

const SCRIPTS: { name: string; path: string; source: string }[] = [
  {
    name: 'user ok',
    path: '/users/7',
    source: `
      pm.test("Status code is 200", function () { pm.response.to.have.status(200); });
      pm.test("Status code is 201", function () { pm.response.to.have.status(201); });
      pm.test("id equals 404", function () { pm.expect(pm.response.json().id).to.equal(404); });
      pm.test("name is Ada", function () { pm.expect(pm.response.json().name).to.eql("Ada"); });
      pm.test("tags include c", function () { pm.expect(pm.response.json().tags).to.include("c"); });
      pm.test("deep address", function () { pm.expect(pm.response.json().address).to.deep.equal({ city: "Lyon" }); });
      pm.test("has content type", function () { pm.response.to.have.header("Content-Type"); });
      pm.test("missing header", function () { pm.response.to.have.header("X-Missing"); });
      pm.test("trace header value", function () { pm.response.to.have.header("X-Trace", "nope"); });
      pm.test("json body path", function () { pm.response.to.have.jsonBody("address.city", "Rome"); });
      pm.test("is ok", function () { pm.response.to.be.ok; });
      pm.test("is json", function () { pm.response.to.be.json; });
      pm.test("throws", function () { throw new Error("custom failure"); });
      pm.test("above", function () { pm.expect(pm.response.json().id).to.be.above(10); });
      pm.test("a string", function () { pm.expect(pm.response.json().id).to.be.a("string"); });
      pm.test("property", function () { pm.expect(pm.response.json()).to.have.property("email"); });
      pm.test.skip("skipped one", function () {});
    `,
  },
  {
    name: 'missing user',
    path: '/users/404',
    source: `
      pm.test("is ok", function () { pm.response.to.be.ok; });
      pm.test("is success", function () { pm.response.to.be.success; });
      pm.test("is client error", function () { pm.response.to.be.clientError; });
      pm.test("is server error", function () { pm.response.to.be.serverError; });
      pm.test("is error", function () { pm.response.to.be.error; });
      pm.test("not found", function () { pm.response.to.be.notFound; });
      pm.test("code 200", function () { pm.expect(pm.response.code).to.equal(200); });
      pm.test("one of", function () { pm.expect(pm.response.code).to.be.oneOf([200, 201]); });
      tests["legacy status 200"] = responseCode.code === 200;
      tests["legacy body has error"] = responseBody.indexOf("error") >= 0;
    `,
  },
  {
    name: 'variables',
    path: '/users/7',
    source: `
      var body = pm.response.json();
      pm.environment.set("userId", body.id);
      postman.setEnvironmentVariable("legacy", "yes");
      pm.test("env read back", function () { pm.expect(pm.environment.get("userId")).to.equal(7); });
      pm.test("replaceIn", function () { pm.expect(pm.variables.replaceIn("u{{userId}}-{{legacy}}")).to.equal("u7-yes"); });
    `,
  },
  {
    name: 'send request',
    path: '/users/7',
    source: `
      pm.sendRequest(pm.request.url.toString().replace("/users/7", "/users/404"), function (err, res) {
        pm.test("sub-request fails", function () { pm.expect(res.code).to.equal(200); });
        pm.test("sub-request body", function () { pm.expect(res.json()).to.have.property("error", "no such user"); });
      });
    `,
  },
  {
    // The libraries Postman's sandbox gives: _ is lodash 3, require('lodash') lodash 4 (ADR 0028 §2).
    name: 'libraries',
    path: '/users/7',
    source: `
      pm.test("lodash 3 global " + _.VERSION, function () { pm.expect(_.pluck([{ a: 1 }, { a: 2 }], "a")).to.eql([1, 2]); });
      pm.test("lodash 4 by require " + require("lodash").VERSION, function () { pm.expect(require("lodash").map([{ a: 1 }], "a")).to.eql([1]); });
      pm.test("hmac signature", function () { pm.expect(CryptoJS.HmacSHA256(pm.response.text(), "key").toString(CryptoJS.enc.Base64)).to.have.lengthOf(44); });
      pm.test("sha256", function () { pm.expect(CryptoJS.SHA256("a").toString()).to.equal("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"); });
      pm.test("crypto-js by require", function () { pm.expect(require("crypto-js").MD5("a").toString()).to.equal("0cc175b9c0f1b6a831c399e269772661"); });
      pm.test("moment by require", function () { pm.expect(require("moment")("2020-01-02T03:04:05Z").utc().format("YYYY-MM-DD HH:mm")).to.equal("2020-01-02 03:04"); });
      pm.test("lodash failure", function () { pm.expect(_.uniq([1, 1, 2])).to.eql([1, 2, 3]); });
    `,
  },
  {
    name: 'runtime error keeps earlier tests',
    path: '/users/7',
    source: `
      pm.test("before", function () { pm.response.to.have.status(200); });
      pm.test("uses a missing field", function () { pm.expect(pm.response.json().missing.deeper).to.equal(1); });
    `,
  },
];

/** A pre-request script whose changes the server sees: from Newman, and from our outcome. */
const PRE_REQUEST = `
  pm.request.headers.add({ key: "X-Added", value: "one" });
  pm.request.headers.upsert({ key: "Accept", value: "text/plain" });
  pm.request.url.query.upsert({ key: "page", value: "2" });
  pm.environment.set("seen", pm.request.url.getPath());
`;

let server: Server;
const received: { url: string; added: string | undefined; accept: string | undefined }[] = [];
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({
      url: req.url!,
      added: req.headers['x-added'] as string | undefined,
      accept: req.headers.accept,
    });
    if (req.url === '/users/7') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Trace': 'abc' });
      res.end(JSON.stringify({ id: 7, name: 'Ada', tags: ['a', 'b'], address: { city: 'Paris' } }));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'no such user' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The part of Newman's API this test uses (it ships no types). */
interface NewmanRun {
  on(event: 'assertion', fn: (err: unknown, a: NewmanAssertion) => void): NewmanRun;
  on(
    event: 'done',
    fn: (err: Error | null, summary: { environment: { toObject(): Record<string, unknown> } }) => void,
  ): NewmanRun;
}
const newman = createRequire(import.meta.url)('newman') as {
  run(options: { collection: unknown; reporters: string[]; environment: unknown }): NewmanRun;
};

interface NewmanAssertion {
  assertion: string;
  skipped?: boolean;
  error?: { message: string };
  item: { name: string };
}

function runNewman(
  extra: unknown[] = [],
): Promise<{ tests: Map<string, ScriptTest[]>; environment: Record<string, unknown> }> {
  const collection = {
    info: { name: 'parity', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: SCRIPTS.map((s) => ({
      name: s.name,
      request: { method: 'GET', url: `${base}${s.path}` },
      event: [{ listen: 'test', script: { type: 'text/javascript', exec: s.source.split('\n') } }],
    })).concat(extra as never[]),
  };
  const tests = new Map<string, ScriptTest[]>(SCRIPTS.map((s) => [s.name, []]));
  return new Promise((resolve, reject) => {
    newman
      .run({ collection, reporters: [], environment: { values: [] } })
      .on('assertion', (_err, a) => {
        tests.get(a.item.name)!.push({
          name: a.assertion,
          passed: !a.error,
          ...(a.error ? { error: a.error.message } : {}),
          ...(a.skipped ? { skipped: true } : {}),
        });
      })
      .on('done', (err, summary) => {
        if (err) reject(err);
        else resolve({ tests, environment: summary.environment.toObject() });
      });
  });
}

it('gives the same test results as Newman for the same scripts and responses', async () => {
  const real = await runNewman();
  const host = fetchSandboxHost();
  let environment: Record<string, string> = {};
  for (const s of SCRIPTS) {
    const response = (await host.sendRequest({
      name: s.name,
      method: 'GET',
      url: `${base}${s.path}`,
      headers: [],
    })) as SandboxResponse;
    const out = await runPostmanScript(
      {
        event: 'test',
        source: s.source,
        request: { name: s.name, method: 'GET', url: `${base}${s.path}`, headers: [] },
        response,
        variables: { globals: {}, collection: {}, environment, data: {}, local: {} },
        iteration: 0,
        iterationCount: 1,
      },
      host,
    );
    expect(out.error).toBeUndefined();
    environment = out.variables.environment;
    expect({ script: s.name, tests: out.tests }).toEqual({ script: s.name, tests: real.tests.get(s.name) });
  }
  // Newman keeps the number a script set; the outcome carries variables as text (ADR §2).
  expect(Object.fromEntries(Object.entries(real.environment).map(([k, v]) => [k, String(v)]))).toEqual(
    environment,
  );
}, 60_000);

it('changes a request in a pre-request script as Newman does', async () => {
  received.length = 0;
  const url = `${base}/search?q=ada&page=1`;
  const headers = [{ key: 'Accept', value: '*/*' }];
  const real = await runNewman([
    {
      name: 'pre-request',
      request: { method: 'GET', url, header: headers },
      event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: PRE_REQUEST.split('\n') } }],
    },
  ]);
  const byNewman = received.find((r) => r.url.startsWith('/search'))!;
  const out = await runPostmanScript(
    {
      event: 'prerequest',
      source: PRE_REQUEST,
      request: { name: 'pre-request', method: 'GET', url, headers },
      variables: { globals: {}, collection: {}, environment: {}, data: {}, local: {} },
      iteration: 0,
      iterationCount: 1,
    },
    fetchSandboxHost(),
  );
  expect(out.error).toBeUndefined();
  const ours = Object.fromEntries(out.request.headers.map((h) => [h.key.toLowerCase(), h.value]));
  expect({ url: out.request.url.slice(base.length), added: ours['x-added'], accept: ours['accept'] }).toEqual(
    byNewman,
  );
  expect(byNewman).toEqual({ url: '/search?q=ada&page=2', added: 'one', accept: 'text/plain' });
  expect(out.variables.environment).toEqual({ seen: real.environment['seen'] });
}, 60_000);
