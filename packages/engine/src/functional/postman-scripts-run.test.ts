import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FunctionalPlanSchema, FunctionalResultSchema, type CallResult } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { TargetGuard } from '../guard/guard';
import { functionalJunitReport } from './report';
import { FunctionalRunner, type RunnerEnd } from './runner';

/*
 * A Postman plan's pre-request and test scripts run around each call in Newman's order
 * (docs/adr/0029-postman-collections.md §3), against a real local server that counts what it receives.
 */

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
  target.route = (req, res) => {
    res.writeHead(req.path === '/missing' ? 404 : 200, {
      'content-type': 'application/json',
      ...(req.path === '/session' ? { 'set-cookie': 'session=s1; Path=/' } : {}),
    });
    res.end(
      JSON.stringify(
        req.path === '/login'
          ? { token: 'tok-9' }
          : {
              path: req.path,
              auth: req.headers.authorization ?? null,
              x: req.headers['x-from-script'] ?? null,
            },
      ),
    );
  };
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => target.reset());

const url = (path: string) => `${target.origin}${path}`;
const block = (source: string, origin = 'request') => ({ origin, source });

async function run(
  input: Record<string, unknown>,
  options: { guard?: TargetGuard } = {},
): Promise<{ calls: CallResult[]; end: RunnerEnd }> {
  const plan = FunctionalPlanSchema.parse({ test_name: 'scripts', think_time: 0, ...input });
  const calls: CallResult[] = [];
  const end = await new FunctionalRunner(plan, {
    insecureTls: false,
    onCall: (j) => calls.push(j.call),
    ...options,
  }).run();
  return { calls, end };
}

const scripted = (d: CallResult['validation_details']) =>
  d.filter((x) => x.type === 'script').map((x) => [x.name, x.passed, x.message]);

describe('pre-request scripts', () => {
  it('set a header and a variable the URL reads, before the call is sent', async () => {
    const { calls } = await run({
      apis: [
        {
          name: 'one',
          url: url('/items/{{id}}'),
          scripts: {
            prerequest: [
              block(
                `pm.variables.set("id", "42"); pm.request.headers.add({ key: "X-From-Script", value: "yes" });`,
              ),
            ],
            test: [],
          },
        },
      ],
    });
    expect(target.count).toBe(1);
    expect(target.recorded[0]!.path).toBe('/items/42');
    expect(target.recorded[0]!.headers['x-from-script']).toBe('yes');
    expect(calls[0]!.success).toBe(true);
  });
});

describe('test scripts', () => {
  it('make each pm.test and legacy tests[...] an assertion of the call; a failing one fails the call and is a JUnit case', async () => {
    const { calls } = await run({
      apis: [
        {
          name: 'tested',
          url: url('/a'),
          scripts: {
            prerequest: [],
            test: [
              block(`
                pm.test("status is 200", () => pm.response.to.have.status(200));
                pm.test("path is /b", () => pm.expect(pm.response.json().path).to.equal("/b"));
                tests["legacy true"] = true;
                tests["legacy false"] = false;
              `),
            ],
          },
        },
      ],
    });
    const call = calls[0]!;
    expect(call.success).toBe(false);
    expect(scripted(call.validation_details)).toEqual([
      ['status is 200', true, 'passed'],
      ['path is /b', false, "expected '/a' to equal '/b'"],
      ['legacy true', true, 'passed'],
      ['legacy false', false, expect.any(String) as unknown as string],
    ]);
    // One JUnit case per test (its scripts judge it: no default status rule beside them,
    // docs/adr/0029-postman-collections.md §3), the failed ones as failures.
    const xml = functionalJunitReport(
      FunctionalResultSchema.parse({
        test_id: 'run-1',
        test_name: 'scripts',
        description: '',
        start_time: '2026-12-03T10:00:00.000Z',
        end_time: '2026-12-03T10:00:01.000Z',
        status: 'failed',
        error: null,
        summary: { total_requests: 1, successful_requests: 0, failed_requests: 1, validation_failures: 2 },
        validation_results: calls,
        api_results: [],
      }),
    );
    const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
    const cases = Array.from(doc.getElementsByTagName('testcase')).filter((c) =>
      c.getAttribute('classname')!.endsWith('.tested'),
    );
    expect(cases.map((c) => [c.getAttribute('name'), c.getElementsByTagName('failure').length])).toEqual([
      ['status is 200', 0],
      ['path is /b', 1],
      ['legacy true', 0],
      ['legacy false', 1],
    ]);
  });

  it('runs the collection-level test script after every call, before the API s own', async () => {
    const { calls } = await run({
      scripts: {
        prerequest: [],
        test: [
          block(
            `pm.test("collection: " + pm.info.requestName, () => pm.response.to.have.status(200));`,
            'collection',
          ),
        ],
      },
      apis: [
        { name: 'first', url: url('/1') },
        {
          name: 'second',
          url: url('/missing'),
          validations: [{ type: 'status_code', expected_value: '404' }],
          scripts: { prerequest: [], test: [block(`pm.test("own", () => {});`)] },
        },
      ],
    });
    expect(calls.map((c) => scripted(c.validation_details))).toEqual([
      [['collection: first', true, 'passed']],
      [
        ['collection: second', false, expect.stringContaining('404') as unknown as string],
        ['own', true, 'passed'],
      ],
    ]);
    expect(calls.map((c) => c.success)).toEqual([true, false]);
  });

  it('pm.environment.set in a test script gives the next call its token, per user, not written back to the plan', async () => {
    const input = {
      concurrent_users: 2,
      environment: { name: 'dev', values: [{ name: 'token', value: 'none' }] },
      apis: [
        {
          name: 'login',
          url: url('/login'),
          headers: { Authorization: 'Bearer {{token}}' },
          scripts: {
            prerequest: [],
            test: [
              block(
                `pm.environment.set("token", pm.response.json().token + "-" + pm.environment.get("token"));`,
              ),
            ],
          },
        },
        { name: 'me', url: url('/me'), headers: { Authorization: 'Bearer {{token}}' } },
      ],
    };
    const { calls } = await run(input);
    const auth = (path: string) =>
      target.recorded.filter((r) => r.path === path).map((r) => r.headers.authorization);
    // Each user starts from the plan's value: neither sees the other's change.
    expect(auth('/login')).toEqual(['Bearer none', 'Bearer none']);
    expect(auth('/me')).toEqual(['Bearer tok-9-none', 'Bearer tok-9-none']);
    expect(calls.every((c) => c.success)).toBe(true);
    expect(input.environment.values[0]!.value).toBe('none');
  });
});

describe('a call sent but not answered', () => {
  it('still runs its test scripts, with an empty response, and keeps their tests beside the error', async () => {
    // Port 1 on the loopback: nothing listens, the connection is refused.
    const { calls } = await run({
      apis: [
        {
          name: 'Down',
          url: 'http://127.0.0.1:1/x',
          scripts: {
            prerequest: [],
            test: [
              block(
                `pm.test("answered", function () { pm.response.to.have.status(200); });
tests["no code"] = pm.response.code === undefined;`,
              ),
            ],
          },
        },
      ],
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.status_code).toBeNull();
    expect(calls[0]!.error).toBeTruthy();
    expect(scripted(calls[0]!.validation_details).map(([name, passed]) => [name, passed])).toEqual([
      ['answered', false],
      ['no code', true],
    ]);
  });
});

describe('the legacy request global', () => {
  it("holds the API's name and description, and no description when it has none, as Newman's", async () => {
    const legacy = block(
      `tests["name " + request.name] = true; tests["description " + request.description] = true;`,
    );
    const { calls } = await run({
      apis: [
        {
          name: 'Described',
          description: 'Lists the orders',
          url: url('/a'),
          scripts: { prerequest: [legacy], test: [legacy] },
        },
        { name: 'Bare', url: url('/b'), scripts: { prerequest: [], test: [legacy] } },
      ],
    });
    // The pre-request script's legacy tests are assertions too, as postman-sandbox raises them.
    expect(calls.map((c) => scripted(c.validation_details).map(([name]) => name))).toEqual([
      ['name Described', 'description Lists the orders', 'name Described', 'description Lists the orders'],
      ['name Bare', 'description undefined'],
    ]);
  });
});

describe('pm.cookies', () => {
  it('reads the user s cookie jar in a test script', async () => {
    const { calls } = await run({
      cookie_jar: true,
      apis: [
        {
          name: 'session',
          url: url('/session'),
          scripts: {
            prerequest: [],
            test: [
              block(`pm.test("has session", () => pm.expect(pm.cookies.get("session")).to.equal("s1"));
                     pm.test("no other", () => pm.expect(pm.cookies.has("other")).to.be.true);`),
            ],
          },
        },
      ],
    });
    expect(scripted(calls[0]!.validation_details)).toEqual([
      ['has session', true, 'passed'],
      ['no other', false, 'expected false to be true'],
    ]);
  });
});

describe('postman.setNextRequest', () => {
  it('loops on an API by a counter, then ends the iteration with null', async () => {
    const { calls, end } = await run({
      iterations: 2,
      apis: [
        {
          name: 'start',
          url: url('/start'),
          scripts: { prerequest: [block(`pm.variables.set("n", "0");`)], test: [] },
        },
        {
          name: 'loop',
          url: url('/loop'),
          scripts: {
            prerequest: [],
            test: [
              block(`
                const n = Number(pm.variables.get("n")) + 1;
                pm.variables.set("n", String(n));
                postman.setNextRequest(n < 3 ? "loop" : null);
              `),
            ],
          },
        },
        { name: 'never', url: url('/never') },
      ],
    });
    expect(calls.map((c) => c.api_name)).toEqual([
      'start',
      'loop',
      'loop',
      'loop',
      'start',
      'loop',
      'loop',
      'loop',
    ]);
    expect(target.byPath.get('/never')).toBeUndefined();
    expect(end.error).toBeNull();
  });

  it('ends the iteration at the bound of 10 jumps per API, and at an unknown name, saying so', async () => {
    const looping = await run({
      apis: [
        {
          name: 'again',
          url: url('/again'),
          scripts: { prerequest: [], test: [block(`postman.setNextRequest("again");`)] },
        },
      ],
    });
    expect(target.byPath.get('/again')).toBe(11);
    expect(looping.end.error).toMatch(/jumped more than 10 times/);
    target.reset();
    const unknown = await run({
      apis: [
        {
          name: 'a',
          url: url('/a'),
          scripts: { prerequest: [], test: [block(`postman.setNextRequest("Nope");`)] },
        },
        { name: 'b', url: url('/b') },
      ],
    });
    expect(unknown.calls.map((c) => c.api_name)).toEqual(['a']);
    expect(unknown.end.error).toMatch(/setNextRequest\("Nope"\) in a names no API/);
  });
});

describe('script errors', () => {
  it('a script stuck in a loop fails its call naming the limit; the next call still runs', async () => {
    const { calls } = await run({
      apis: [
        {
          name: 'stuck',
          url: url('/stuck'),
          scripts: { prerequest: [], test: [block(`while (true) {}`, 'folder Orders')] },
        },
        { name: 'after', url: url('/after') },
      ],
    });
    expect(calls.map((c) => c.success)).toEqual([false, true]);
    expect(calls[0]!.error).toBe(
      'test script of folder Orders: the script ran past its time limit of 1000 ms',
    );
    expect(target.byPath.get('/after')).toBe(1);
  }, 15_000);

  it('a runtime error names the origin and the line, and the console output is kept in the evidence', async () => {
    const { calls } = await run({
      apis: [
        {
          name: 'broken',
          url: url('/broken'),
          scripts: {
            prerequest: [block(`console.log("before");\n\nx.y = 1;`, 'folder Orders')],
            test: [],
          },
        },
      ],
    });
    expect(calls[0]!.success).toBe(false);
    expect(calls[0]!.error).toBe(
      'pre-request script of folder Orders: ReferenceError: x is not defined (line 3)',
    );
    expect(calls[0]!.evidence?.logs).toEqual(['[log] before']);
    expect(target.count).toBe(1);
  });
});

describe('pm.sendRequest', () => {
  it('goes through the run s target guard and reaches the server', async () => {
    const { calls } = await run({
      apis: [
        {
          name: 'with side call',
          url: url('/main'),
          scripts: {
            prerequest: [
              block(
                `pm.sendRequest("${url('/side')}", (err, res) => { pm.variables.set("side", String(res.code)); });`,
              ),
            ],
            test: [
              block(`pm.test("side answered", () => pm.expect(pm.variables.get("side")).to.equal("200"));`),
            ],
          },
        },
      ],
    });
    expect(target.byPath.get('/side')).toBe(1);
    expect(target.byPath.get('/main')).toBe(1);
    expect(calls[0]!.success).toBe(true);
  });

  it('is refused by a target guard that refuses the address, and the server sees nothing', async () => {
    const { calls } = await run(
      {
        apis: [
          {
            name: 'guarded',
            url: url('/main'),
            scripts: {
              prerequest: [
                block(
                  `pm.sendRequest("${url('/side')}", (err, res) => { pm.test("side refused", () => pm.expect(err).to.not.equal(null)); });`,
                ),
              ],
              test: [],
            },
          },
        ],
      },
      { guard: new TargetGuard({ allow: [], deny: ['127.0.0.1', '::1'] }) },
    );
    expect(target.count).toBe(0);
    expect(scripted(calls[0]!.validation_details)).toEqual([['side refused', true, 'passed']]);
  });
});
