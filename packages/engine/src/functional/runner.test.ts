import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { hasOpenssl, startSelfSignedTarget } from '../testing/tls-target';
import { FunctionalRunner, type JudgedCall } from './runner';

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

it('starts no call after the test duration and says how far the run got', async () => {
  const plan = FunctionalPlanSchema.parse({
    test_name: 'duration',
    iterations: 10,
    think_time: 1,
    apis: [{ name: 'a', url: `${target.origin}/a` }],
  });
  const judged: JudgedCall[] = [];
  const started = performance.now();
  const end = await new FunctionalRunner(plan, {
    insecureTls: false,
    durationMs: 1500,
    onCall: (j) => judged.push(j),
  }).run();
  // Calls at 0 s and 1 s (later on a busy machine); the pause after the last is cut at 1.5 s.
  expect(judged.length).toBeGreaterThanOrEqual(1);
  expect(judged.length).toBeLessThanOrEqual(2);
  expect(target.count).toBe(judged.length);
  for (const { atMs, call } of judged) expect(atMs - call.response_time).toBeLessThan(1500);
  expect(end.error).toEqual({
    text: `The test duration of 1.5 s ended after ${judged.length} of 10 iterations`,
    phrase: {
      code: 'functional.durationEnded',
      params: {
        duration: { code: 'duration.seconds', params: { count: 1.5 } },
        done: judged.length,
        total: 10,
      },
    },
  });
  expect(performance.now() - started).toBeLessThan(4000);
});

it.skipIf(!hasOpenssl())(
  'measures the TLS handshake of a fresh connection, and refuses a self-signed certificate unless told',
  async () => {
    const tls = await startSelfSignedTarget();
    try {
      const url = `${tls.origin}/`;
      const plan = FunctionalPlanSchema.parse({
        test_name: 'tls',
        think_time: 0,
        apis: [{ name: 'secure', url, validations: [{ type: 'contains_text', expected_value: 'secure' }] }],
      });
      const strict: JudgedCall[] = [];
      await new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => strict.push(j) }).run();
      expect(tls.served()).toBe(0);
      expect(strict[0]?.call.error).toMatch(/^TLS with 127\.0\.0\.1:\d+ failed: self[- ]signed certificate/);

      const insecure: JudgedCall[] = [];
      await new FunctionalRunner(plan, { insecureTls: true, onCall: (j) => insecure.push(j) }).run();
      expect(tls.served()).toBe(1);
      const call = insecure[0]!.call;
      expect(call.success).toBe(true);
      expect(call.timings!.dns).toBe(0);
      expect(call.timings!.connect).toBeGreaterThan(0);
      expect(call.timings!.tls).toBeGreaterThan(0);
      expect(call.timings!.ttfb).toBeGreaterThan(0);
    } finally {
      tls.close();
    }
  },
);

it('sends a GET again on a new connection when the kept-alive one was closed as it was reused', async () => {
  // Each connection answers its first request and drops the next, as a server that closed an idle
  // connection just as the client reused it.
  const served = new WeakSet<IncomingMessage['socket']>();
  let dropped = 0;
  const server = createHttpServer((req, res) => {
    if (served.has(req.socket)) {
      dropped++;
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const plan = FunctionalPlanSchema.parse({
      test_name: 'stale',
      think_time: 0,
      apis: [
        { name: 'first', url },
        { name: 'second', url },
        { name: 'post', method: 'POST', url, body: 'x' },
      ],
    });
    const judged: JudgedCall[] = [];
    await new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => judged.push(j) }).run();
    expect(dropped).toBe(2);
    expect(judged.map((j) => j.call.success)).toEqual([true, true, false]);
    expect(judged[1]!.call.timings!.connect).toBeGreaterThan(0);
    // A POST is not sent twice: the dropped one is the call's result.
    expect(judged[2]!.call.error).toMatch(
      /^The connection to 127\.0\.0\.1:\d+ closed before a response came$/,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

it('fetches an OAuth2 client-credentials token once for the run, and says why when it cannot', async () => {
  const before = target.route;
  target.route = (req, res) => {
    if (req.path === '/token') {
      const form = new URLSearchParams(req.body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: `T-${form.get('client_id')}`, expires_in: 3600 }));
    } else {
      res.writeHead(req.headers.authorization === 'Bearer T-cid' ? 200 : 401);
      res.end();
    }
  };
  try {
    target.reset();
    const oauth2 = (tokenUrl: string) => ({ type: 'oauth2', token: 'cid:secret', tokenUrl, scope: 'read' });
    const plan = FunctionalPlanSchema.parse({
      test_name: 'oauth2',
      think_time: 0,
      concurrent_users: 2,
      iterations: 2,
      apis: [
        { name: 'secure', url: `${target.origin}/secure`, authorization: oauth2(`${target.origin}/token`) },
        {
          name: 'no token',
          url: `${target.origin}/secure`,
          authorization: oauth2('http://127.0.0.1:1/token'),
        },
      ],
    });
    const judged: JudgedCall[] = [];
    await new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => judged.push(j) }).run();
    const secure = judged.filter((j) => j.apiIndex === 0).map((j) => j.call);
    expect(secure.map((c) => c.status_code)).toEqual([200, 200, 200, 200]);
    expect(target.byPath.get('/token')).toBe(1);
    const token = target.recorded.find((r) => r.path === '/token')!;
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid',
      client_secret: 'secret',
      scope: 'read',
    });
    const failed = judged.filter((j) => j.apiIndex === 1).map((j) => j.call);
    expect(failed).toHaveLength(4);
    expect(failed[0]).toMatchObject({
      status_code: null,
      error: 'Could not get an OAuth2 token from http://127.0.0.1:1/token: Connection refused by 127.0.0.1:1',
    });
    expect(target.byPath.get('/secure')).toBe(4);
  } finally {
    target.route = before;
  }
});

it('judges json_path rules with JSON literals: "ada" is the string ada, 10.0 the number 10 (docs/design.md §4)', async () => {
  target.route = (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"user":{"name":"ada","id":"7"},"count":10,"ok":true,"gone":null}');
  };
  const rules = [
    '$.user.name == "ada"',
    '$.count == 10.0',
    '$.ok == true',
    '$.gone == null',
    '$.user.name == ada',
    '$.user.name != "bob"',
    '$.user.id == 7',
  ];
  const plan = FunctionalPlanSchema.parse({
    test_name: 'literals',
    think_time: 0,
    apis: [
      {
        name: 'user',
        url: `${target.origin}/user`,
        validations: rules.map((expected_value) => ({ type: 'json_path', expected_value })),
      },
    ],
  });
  const judged: JudgedCall[] = [];
  await new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => judged.push(j) }).run();
  const details = judged[0]!.call.validation_details;
  expect(details.map((d) => d.passed)).toEqual([true, true, true, true, true, true, false]);
  // The string "7" is no number 7: the value is shown as JSON beside a literal.
  expect(details[6]!.message).toBe('expected $.user.id == 7, got "7"');
});
