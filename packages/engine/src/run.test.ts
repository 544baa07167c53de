import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRun, type RunOptions } from './run';
import { PlanCompileError } from './executor/compile';
import { TestTarget, testPlan } from './testing/target';
import { hasOpenssl, startSelfSignedTarget } from './testing/tls-target';
import type { PerfPlan } from '@aqa/plan';
import type { RunResult, RunSnapshot } from './types';
import { Histogram } from './metrics/histogram';

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.reset();
  target.route = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  };
});

async function run(
  plan: PerfPlan,
  opts: RunOptions,
): Promise<{ result: RunResult; snapshots: RunSnapshot[] }> {
  const handle = startRun(plan, opts);
  const snapshots: RunSnapshot[] = [];
  for await (const s of handle.snapshots) snapshots.push(s);
  return { result: await handle.result, snapshots };
}

const url = (path: string): string => `${target.origin}${path}`;

describe('plans that cannot run', () => {
  it('throws every problem at once, before starting anything', () => {
    const bad = { name: '', concurrent_users: 0, duration: 1, urls: [{ url: 'nope' }] };
    expect(() => startRun(bad)).toThrow(PlanCompileError);
    try {
      startRun(bad);
    } catch (e) {
      expect((e as PlanCompileError).problems.join('\n')).toMatch(
        /name[\s\S]*concurrent_users[\s\S]*urls\[0\]\.url/,
      );
    }
    const badRegex = testPlan([
      { url: url('/r'), assertionType: 'text', assertionOperator: 'regex', assertionValue: '(' },
    ]);
    expect(() => startRun(badRegex)).toThrow(/urls\[0\] assertion: invalid regular expression/);
  });
});

describe('counts', () => {
  it('counts every request exactly: engine total equals what the target received', async () => {
    const plan = testPlan([{ url: url('/a') }, { url: url('/b'), method: 'POST', payload: '{"x":1}' }], {
      concurrent_users: 6,
    });
    const { result, snapshots } = await run(plan, { durationSeconds: 1.5, workers: 2 });
    const s = result.summary;
    expect(s.total_requests).toBeGreaterThan(100);
    expect(s.total_requests).toBe(target.count);
    expect(s.successful_requests).toBe(s.total_requests);
    expect(s.failed_requests).toBe(0);
    expect(result.api_results.map((a) => a.total_requests)).toEqual([
      target.byPath.get('/a'),
      target.byPath.get('/b'),
    ]);
    // The per-second stream adds up to the same total, and every response has a latency.
    expect(snapshots.reduce((n, x) => n + x.requests, 0)).toBe(s.total_requests);
    expect(Histogram.decode(result.histogram).totalCount).toBe(s.total_requests);
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    expect(snapshots[0]!.activeUsers).toBe(6);
    expect(s.concurrent_users).toBe(6);
    expect(s.percentile_50).toBeGreaterThan(0);
    expect(s.percentile_999).toBeGreaterThanOrEqual(s.percentile_99);
    expect(s.max_response_time).toBeGreaterThanOrEqual(s.percentile_999);
    expect(s.bytes_received).toBeGreaterThan(0);
    expect(result.workers).toBe(2);
    expect(result.status).toBe('completed');
  });

  it('merges two workers into the same totals as one worker', async () => {
    // One iteration per user: three steps, then a think time longer than the run.
    const plan = testPlan([{ url: url('/m1') }, { url: url('/m2') }, { url: url('/m3'), thinkTime: '10s' }], {
      concurrent_users: 8,
    });
    const one = await run(plan, { durationSeconds: 1, workers: 1 });
    const oneCount = target.count;
    target.reset();
    const two = await run(plan, { durationSeconds: 1, workers: 2 });
    expect(two.result.workers).toBe(2);
    expect(one.result.summary.total_requests).toBe(24);
    expect(two.result.summary.total_requests).toBe(24);
    expect(oneCount).toBe(24);
    expect(target.count).toBe(24);
    expect(two.result.api_results.map((a) => a.total_requests)).toEqual(
      one.result.api_results.map((a) => a.total_requests),
    );
    expect(Histogram.decode(two.result.histogram).totalCount).toBe(24);
    expect(two.snapshots.reduce((n, x) => n + x.requests, 0)).toBe(24);
  });
});

describe('requests', () => {
  it('sends params, headers, payload and each authorization type', async () => {
    const plan = testPlan(
      [
        {
          url: url('/p?fixed=1'),
          parameters: [
            { key: 'q', value: 'a b&c' },
            { key: 'blank', value: '' },
          ],
          headers: [
            { name: 'x-one', value: '1' },
            { name: '', value: 'dropped' },
          ],
          authorization: { type: 'bearer', token: 'BT' },
        },
        { url: url('/basic'), authorization: { type: 'basic', username: 'u', password: 'p:w' } },
        { url: url('/keyh'), authorization: { type: 'api_key', keyName: 'x-api-key', keyValue: 'K1' } },
        {
          url: url('/keyq'),
          authorization: { type: 'api_key', keyName: 'api_key', keyValue: 'K2', in: 'query' },
        },
        { url: url('/post'), method: 'PUT', payload: '{"n":1}' },
        { url: url('/get-with-payload'), method: 'GET', payload: 'ignored' },
      ],
      { concurrent_users: 1 },
    );
    await run(plan, { durationSeconds: 0.5, workers: 1 });
    const first = (path: string) => target.recorded.find((r) => r.path === path)!;
    const p = first('/p');
    expect(p.query.get('fixed')).toBe('1');
    expect(p.query.get('q')).toBe('a b&c');
    expect(p.query.has('blank')).toBe(false);
    expect(p.headers['x-one']).toBe('1');
    expect(p.headers.authorization).toBe('Bearer BT');
    expect(first('/basic').headers.authorization).toBe(`Basic ${Buffer.from('u:p:w').toString('base64')}`);
    expect(first('/keyh').headers['x-api-key']).toBe('K1');
    expect(first('/keyq').query.get('api_key')).toBe('K2');
    const put = first('/post');
    expect(put.method).toBe('PUT');
    expect(put.body).toBe('{"n":1}');
    expect(put.headers['content-type']).toBe('application/json');
    expect(first('/get-with-payload').body).toBe('');
  });

  it('fetches an OAuth2 client-credentials token once and refreshes it when it expires', async () => {
    let issued = 0;
    const valid = new Set<string>();
    target.route = (req, res) => {
      if (req.path === '/token') {
        const form = new URLSearchParams(req.body);
        const ok =
          form.get('grant_type') === 'client_credentials' &&
          form.get('client_id') === 'cid' &&
          form.get('client_secret') === 'sec' &&
          form.get('scope') === 'read';
        const tok = `A${++issued}`;
        valid.add(tok);
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: tok, token_type: 'bearer', expires_in: 1 }));
        return;
      }
      const good = valid.has((req.headers.authorization ?? '').replace('Bearer ', ''));
      res.writeHead(good ? 200 : 401);
      res.end();
    };
    const plan = testPlan(
      [
        {
          url: url('/api'),
          thinkTime: '50ms',
          authorization: { type: 'oauth2', token: 'cid:sec', tokenUrl: url('/token'), scope: 'read' },
        },
      ],
      { concurrent_users: 4 },
    );
    const { result } = await run(plan, { durationSeconds: 2, workers: 1 });
    // A 1 s token is refreshed ~100 ms early: 2 or 3 fetches in 2 s, not one per request.
    expect(issued).toBeGreaterThanOrEqual(2);
    expect(issued).toBeLessThanOrEqual(4);
    expect(result.summary.total_requests).toBeGreaterThan(40);
    expect(result.summary.failed_requests).toBe(0);
    expect(target.recorded.find((r) => r.path === '/token')!.body).toContain('scope=read');
  });
});

describe('variables', () => {
  it('carries extracted values (json, xml, text, regex) to later steps of the same user', async () => {
    let n = 0;
    const expected = new Map<unknown, Record<string, string>>(); // per connection = per user
    let mismatches = 0;
    const check = (sock: unknown, key: string, got: string | null | undefined) => {
      if (expected.get(sock)?.[key] !== got) mismatches++;
    };
    target.route = (req, res) => {
      const sock = res.socket;
      const k = ++n;
      const mine = expected.get(sock) ?? {};
      expected.set(sock, mine);
      switch (req.path) {
        case '/login':
          mine.token = `T${k}`;
          res.end(JSON.stringify({ data: { token: mine.token } }));
          return;
        case '/profile':
          check(sock, 'token', req.headers['x-token'] as string);
          mine.uid = `U${k}`;
          res.end(`<user><id>${mine.uid}</id></user>`);
          return;
        default:
          if (req.path.startsWith('/item/')) {
            check(sock, 'uid', req.path.slice(6));
            check(sock, 'token', req.query.get('t'));
            mine.nm = `N${k}`;
            res.end(`name=${mine.nm};rest`);
          } else if (req.path === '/check') {
            check(sock, 'nm', req.query.get('nm'));
            mine.zz = `Z${k}`;
            res.end(`<a id="${mine.zz}">`);
          } else if (req.path.startsWith('/final/')) {
            check(sock, 'zz', req.path.slice(7));
            res.end('done');
          } else res.writeHead(404).end();
      }
    };
    const plan = testPlan(
      [
        {
          url: url('/login'),
          method: 'POST',
          payload: '{}',
          extractType: 'json',
          extractName: 'token',
          extractValue: '$.data.token',
        },
        {
          url: url('/profile'),
          headers: [{ name: 'x-token', value: '{{token}}' }],
          extractType: 'xml',
          extractName: 'uid',
          extractValue: '/user/id',
        },
        {
          url: url('/item/{{uid}}'),
          parameters: [{ key: 't', value: '{{token}}' }],
          extractType: 'text',
          extractName: 'nm',
          extractValue: 'name=*;',
        },
        {
          url: url('/check'),
          parameters: [{ key: 'nm', value: '{{nm}}' }],
          extractType: 'regex',
          extractName: 'zz',
          extractValue: 'id="(\\w+)"',
        },
        { url: url('/final/{{zz}}') },
      ],
      { concurrent_users: 5 },
    );
    const { result } = await run(plan, { durationSeconds: 1, workers: 2 });
    expect(target.byPath.get('/login')).toBeGreaterThan(10);
    expect(mismatches).toBe(0);
    expect(result.summary.failed_requests).toBe(0);
    expect(target.recorded.some((r) => r.url.includes('{{'))).toBe(false);
  });

  it('renders a URL whose origin comes from a variable', async () => {
    target.route = (req, res) => {
      if (req.path === '/where') res.end(JSON.stringify({ base: target.origin }));
      else res.end('ok');
    };
    const plan = testPlan(
      [
        { url: url('/where'), extractType: 'json', extractName: 'base', extractValue: '$.base' },
        { url: '{{base}}/there?x=1', parameters: [{ key: 'y', value: '2' }] },
      ],
      { concurrent_users: 1 },
    );
    const { result } = await run(plan, { durationSeconds: 0.3, workers: 1 });
    const there = target.recorded.filter((r) => r.path === '/there');
    expect(there.length).toBeGreaterThan(0);
    expect(there[0]!.url).toBe('/there?x=1&y=2');
    expect(result.summary.failed_requests).toBe(0);
  });

  it('sends a variable that has no value yet as written', async () => {
    const plan = testPlan([{ url: url('/v/{{never}}') }], { concurrent_users: 1 });
    await run(plan, { durationSeconds: 0.3, workers: 1 });
    expect(decodeURIComponent(target.recorded[0]!.url)).toBe('/v/{{never}}');
  });

  it('gives every iteration the next sequence number, shared across users and workers, wrapping after N', async () => {
    const plan = testPlan(
      [
        {
          url: url('/s/{{sequence_number,1000000}}'),
          headers: [{ name: 'x-small', value: '{{sequence_number,7}}' }],
        },
        { url: url('/t/{{sequence_number,1000000}}') },
      ],
      { concurrent_users: 8 },
    );
    const { result } = await run(plan, { durationSeconds: 1, workers: 2 });
    const firsts = target.recorded.filter((r) => r.path.startsWith('/s/'));
    const values = firsts.map((r) => Number(r.path.slice(3)));
    expect(values.length).toBeGreaterThan(50);
    // Never repeated within N across 8 users in 2 workers.
    expect(new Set(values).size).toBe(values.length);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...values)).toBeLessThan(values.length + 20); // no gaps beyond users that stopped mid-iteration
    // The small counter wraps 1..7 and agrees with the large one (same iteration index).
    for (const r of firsts)
      expect(Number(r.headers['x-small'])).toBe(((Number(r.path.slice(3)) - 1) % 7) + 1);
    // The second step of an iteration sees the same value as the first.
    const seconds = new Set(
      target.recorded.filter((r) => r.path.startsWith('/t/')).map((r) => Number(r.path.slice(3))),
    );
    for (const v of seconds) expect(values).toContain(v);
    expect(result.summary.failed_requests).toBe(0);
  });
});

describe('iteration shape', () => {
  it('runs a step with its transactionRate chance per iteration', async () => {
    const plan = testPlan(
      [
        { url: url('/always') },
        { url: url('/sometimes'), transactionRate: 30 },
        { url: url('/never'), transactionRate: 0 },
      ],
      {
        concurrent_users: 4,
      },
    );
    // Enough iterations for the ratio to be meaningful, however busy the machine (no timed goal).
    const handle = startRun(plan, { durationSeconds: 60, workers: 1 });
    for await (const _ of handle.snapshots) if ((target.byPath.get('/always') ?? 0) > 400) void handle.stop();
    await handle.result;
    const always = target.byPath.get('/always') ?? 0;
    const sometimes = target.byPath.get('/sometimes') ?? 0;
    expect(always).toBeGreaterThan(400);
    // Binomial: with n > 400 iterations the ratio's standard deviation is < 0.023; ±0.1 is > 4 of them.
    expect(Math.abs(sometimes / always - 0.3)).toBeLessThan(0.1);
    expect(target.byPath.get('/never') ?? 0).toBe(0);
  });

  it('pauses for the think time after each step', async () => {
    const arrivals: number[] = [];
    target.route = (_req, res) => {
      arrivals.push(performance.now());
      res.end('ok');
    };
    const plan = testPlan([{ url: url('/think'), thinkTime: '0.3' }], { concurrent_users: 1 });
    const { result } = await run(plan, { durationSeconds: 1.05, workers: 1 });
    // t = 0, 0.3, 0.6, 0.9 (a busy machine may push the last one past the end)
    expect(result.summary.total_requests).toBeGreaterThanOrEqual(3);
    expect(result.summary.total_requests).toBeLessThanOrEqual(4);
    expect(arrivals.length).toBe(result.summary.total_requests);
    for (let i = 1; i < arrivals.length; i++)
      expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(295);
  });
});

describe('failures', () => {
  it('counts status ≥ 400 and failed assertions as errors', async () => {
    target.route = (req, res) => {
      if (req.path.startsWith('/missing')) res.writeHead(404).end('nope');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":false}');
    };
    const plan = testPlan(
      [
        { url: url('/missing') },
        // docs/design.md §4 as every generator reads it: a 404 stays an error even when it is asserted.
        { url: url('/missing-asserted'), assertionType: 'status', assertionValue: '404' },
        { url: url('/status'), assertionType: 'status', assertionValue: '201' },
        { url: url('/json'), assertionType: 'json', assertionPath: '$.ok', assertionValue: 'true' },
        { url: url('/json2'), assertionType: 'json', assertionPath: '$.ok', assertionValue: 'false' },
      ],
      { concurrent_users: 2 },
    );
    const { result } = await run(plan, { durationSeconds: 0.5, workers: 1 });
    const [missing, missingAsserted, statusFail, jsonFail, jsonOk] = result.api_results;
    expect(missing!.total_requests).toBeGreaterThan(0);
    expect(missing!.failed_requests).toBe(missing!.total_requests);
    expect(missing!.errors.http_status?.count).toBe(missing!.total_requests);
    expect(missing!.errors.http_status?.samples[0]).toMatch(/HTTP 404/);
    expect(missingAsserted!.errors.http_status?.count).toBe(missingAsserted!.total_requests);
    expect(statusFail!.errors.assertion?.count).toBe(statusFail!.total_requests);
    expect(statusFail!.errors.assertion?.samples[0]).toMatch(/status "200" equals "201"/);
    expect(jsonFail!.errors.assertion?.count).toBe(jsonFail!.total_requests);
    expect(jsonFail!.errors.assertion?.samples.length).toBeLessThanOrEqual(5);
    expect(jsonOk!.failed_requests).toBe(0);
    expect(result.summary.total_requests).toBe(target.count);
    expect(result.summary.error_rate).toBeCloseTo(
      (result.summary.failed_requests / result.summary.total_requests) * 100,
      1,
    );
  });

  it('reads expected JSON values as JSON literals: "ada" is the string ada, 10.0 the number 10', async () => {
    target.route = (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"user":{"name":"ada","id":"7"},"count":10,"ok":true,"gone":null}');
    };
    const json = (
      path: string,
      assertionPath: string,
      assertionValue: string,
      op: 'equals' | 'not_equals' = 'equals',
    ) =>
      ({
        url: url(path),
        assertionType: 'json',
        assertionPath,
        assertionValue,
        assertionOperator: op,
      }) as const;
    const plan = testPlan(
      [
        json('/quoted', '$.user.name', '"ada"'),
        json('/number', '$.count', '10.0'),
        json('/boolean', '$.ok', 'true'),
        json('/null', '$.gone', 'null'),
        json('/bare', '$.user.name', 'ada'),
        json('/not-a-string', '$.user.name', '"bob"', 'not_equals'),
        // The string "7" is no number 7 (docs/design.md §4 "JSON literals").
        json('/typed', '$.user.id', '7'),
      ],
      { concurrent_users: 1 },
    );
    // Long enough for one VU to reach the seventh step on a loaded machine.
    const { result } = await run(plan, { durationSeconds: 1.5, workers: 1 });
    const rows = result.api_results;
    for (const row of rows.slice(0, 6)) {
      expect(row.total_requests, row.url).toBeGreaterThan(0);
      expect(row.failed_requests, `${row.url}: ${JSON.stringify(row.errors)}`).toBe(0);
    }
    const typed = rows[6]!;
    expect(typed.total_requests).toBeGreaterThan(0);
    expect(typed.failed_requests).toBe(typed.total_requests);
    expect(typed.errors.assertion?.samples[0]).toBe('assertion failed: $.user.id "7" equals 7 is false');
  });

  it('counts a request undici refuses (a header value with a line break) as other, without looping', async () => {
    target.route = (_req, res) => {
      res.end('line one\nline two');
    };
    const plan = testPlan(
      [
        { url: url('/body'), extractType: 'text', extractName: 'v', extractValue: '' },
        { url: url('/echo'), headers: [{ name: 'x-v', value: '{{v}}' }] },
      ],
      { concurrent_users: 1 },
    );
    const { result } = await run(plan, { durationSeconds: 0.3, workers: 1 });
    const echo = result.api_results[1]!;
    expect(echo.total_requests).toBeGreaterThan(0);
    expect(echo.errors.other?.count).toBe(echo.total_requests);
    expect(target.byPath.get('/echo') ?? 0).toBe(0);
    expect(result.summary.total_requests).toBe(target.count + echo.total_requests);
  });

  it('counts a request that outlives its time-out as a timeout', async () => {
    target.route = (req, res) => {
      if (req.path === '/slow') return; // never answers
      res.end('ok');
    };
    const plan = testPlan([{ url: url('/slow'), timeout: 1 }], { concurrent_users: 2 });
    const { result } = await run(plan, { durationSeconds: 1.5, workers: 1 });
    expect(result.errors.timeout?.count).toBe(result.summary.total_requests);
    expect(result.summary.total_requests).toBe(4); // each user: 0 → 1 s time-out, 1 s → 2 s time-out
    expect(result.summary.total_requests).toBe(target.count);
    expect(result.errors.timeout?.samples[0]).toMatch(/within 1 s/);
  });

  it('counts a refused connection as connect and plain HTTP answered to TLS as tls', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const plan = testPlan(
      [{ url: `http://127.0.0.1:${port}/x` }, { url: `https://127.0.0.1:${target.port}/tls` }],
      { concurrent_users: 1 },
    );
    const { result } = await run(plan, { durationSeconds: 0.3, workers: 1 });
    expect(result.api_results[0]!.errors.connect?.count).toBe(result.api_results[0]!.total_requests);
    expect(result.api_results[0]!.errors.connect?.samples[0]).toMatch(/ECONNREFUSED/);
    expect(result.api_results[1]!.errors.tls?.count).toBe(result.api_results[1]!.total_requests);
    expect(result.summary.successful_requests).toBe(0);
  });

  it.skipIf(!hasOpenssl())('reaches a self-signed TLS target only with insecureTls', async () => {
    const tls = await startSelfSignedTarget();
    try {
      const plan = testPlan([{ url: `${tls.origin}/s`, thinkTime: '100ms' }], { concurrent_users: 1 });
      const strict = await run(plan, { durationSeconds: 0.3, workers: 1 });
      expect(strict.result.errors.tls?.count).toBe(strict.result.summary.total_requests);
      expect(tls.served()).toBe(0);
      const insecure = await run(plan, { durationSeconds: 0.3, workers: 1, insecureTls: true });
      expect(insecure.result.summary.failed_requests).toBe(0);
      expect(insecure.result.summary.total_requests).toBe(tls.served());
    } finally {
      tls.close();
    }
  });

  it('lets requests in flight at the end of the duration finish and count as usual', async () => {
    target.route = (_req, res) => {
      setTimeout(() => res.end('late'), 600);
    };
    const plan = testPlan([{ url: url('/slow600') }], { concurrent_users: 2 });
    const { result } = await run(plan, { durationSeconds: 1, workers: 1 });
    // Each user: sent at 0 s (answered 0.6 s), sent at 0.6 s (answered 1.2 s, after the end).
    expect(result.summary.total_requests).toBe(4);
    expect(result.summary.successful_requests).toBe(4);
    expect(result.errors.cancelled).toBeUndefined();
    expect(target.count).toBe(4);
    expect(result.summary.test_duration).toBeGreaterThan(1.15);
    expect(result.summary.percentile_50).toBeGreaterThanOrEqual(600);
  });

  it('stops within 2 s, counting requests still in flight as cancelled', async () => {
    const held = new Set<Socket>();
    target.route = (req, res) => {
      if (req.path === '/hang') held.add(res.socket!);
      else res.end('ok');
    };
    const plan = testPlan([{ url: url('/hang') }], { concurrent_users: 4 });
    const handle = startRun(plan, { durationSeconds: 60, workers: 2 });
    // Every user's request held by the target (worker start-up is not part of the stop).
    while (held.size < 4) await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await handle.stop();
    const stoppedInMs = performance.now() - t0;
    const result = await handle.result;
    expect(stoppedInMs).toBeLessThan(2000);
    expect(result.status).toBe('stopped');
    expect(result.summary.total_requests).toBe(4);
    expect(result.errors.cancelled?.count).toBe(4);
    expect(target.count).toBe(4);
  });

  it('stops through an AbortSignal', async () => {
    const ac = new AbortController();
    const plan = testPlan([{ url: url('/sig'), thinkTime: '100ms' }], { concurrent_users: 2 });
    const handle = startRun(plan, { durationSeconds: 60, workers: 1, signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    const result = await handle.result;
    expect(result.status).toBe('stopped');
    expect(result.summary.total_requests).toBe(target.count);
    expect(result.summary.test_duration).toBeLessThan(2.5);
  });
});
