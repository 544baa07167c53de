import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTestServer,
  registerAndLogin,
  removeDir,
  startServerWithTwoUsers,
  startTestServer,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';
import { waitFor } from './wait-for';

/*
 * UI runs through the calls of docs/reference/02-running.md §7: real Chromium (/usr/bin/chromium)
 * driven by the UI runner, against pages this test serves on 127.0.0.1 and counts, stored in a real
 * SQLite file with their screenshots. Two browsers (AQA_UI_BROWSERS=2), one a user by default, so a
 * user's second run queues while another user's run starts.
 */

const CHROMIUM = '/usr/bin/chromium';

interface UiStep {
  api_name: string;
  url: string;
  status_code: number | null;
  success: boolean;
  error?: string | null;
  validation_details: {
    type: string;
    passed: boolean;
    expected: unknown;
    actual: unknown;
    message: string;
  }[];
  ui?: {
    timings: { ttfb: number; dom_content_loaded: number; load: number } | null;
    vitals: { fcp: number | null; lcp: number | null; cls: number | null };
    console_errors: string[];
    screenshots: { id: string; label: string; failure: boolean }[];
    actions: { action: string; passed: boolean; message: string }[];
  };
}

interface Result {
  test_id: string;
  status: string;
  error?: string | null;
  queue_position?: number | null;
  validation_results: UiStep[];
  timeline_data: { time: number; response_time: number }[];
}

/** The pages: counted by path; /slow answers after `slowMs`. */
class PageServer {
  readonly counts = new Map<string, number>();
  private readonly server: Server;
  slowMs = 8_000;

  constructor() {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
      const page = (title: string, body: string) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
      };
      if (path === '/home') page('Home', '<main id="app"><h1>Welcome home</h1></main>');
      else if (path === '/shop') page('Shop', '<main><h1>Products</h1><p>No cart here</p></main>');
      else if (path === '/form')
        page(
          'Form',
          `<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value">
             <input id="name" name="name"><button id="go" type="submit">Go</button></form><p id="out"></p>`,
        );
      else if (path === '/slow') setTimeout(() => page('Slow', '<p>finally</p>'), this.slowMs).unref();
      else if (path === '/loop') page('Never yields', '<p>Loading</p><script>while (true) {}</script>');
      else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not here');
      }
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let server: TestServer;
let pages: PageServer;
let origin: string;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  pages = new PageServer();
  origin = await pages.start();
  ({ server, alice, bob } = await startServerWithTwoUsers({
    AQA_BROWSER_PATH: CHROMIUM,
    AQA_UI_BROWSERS: '2',
    AQA_UI_STEP_TIMEOUT_MS: '10000',
    AQA_TARGETS_DENY: '127.0.0.2',
  }));
});

afterAll(async () => {
  await closeTestServer(server);
  await pages?.close();
});

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

function uiPlan(name: string, apis: unknown[]) {
  return { test_name: name, source: 'ui_url_input', test_type: 'ui', iterations: 1, apis };
}

async function start(body: unknown, token = alice.token): Promise<string> {
  const response = await call('POST', '/api/functional/run-test', token, body);
  if (response.statusCode !== 201) throw new Error(`run-test: ${response.statusCode} ${response.body}`);
  return response.json<{ test_id: string }>().test_id;
}

async function result(id: string, token = alice.token): Promise<Result> {
  return (await call('GET', `/api/functional/get-test-result/${id}`, token)).json<Result>();
}

async function until(
  id: string,
  done: (r: Result) => boolean,
  ms = 40_000,
  token = alice.token,
): Promise<Result> {
  let last: Result | undefined;
  return waitFor(
    () => `run ${id}: ${JSON.stringify(last).slice(0, 400)}`,
    async () => {
      last = await result(id, token);
      return done(last) ? last : undefined;
    },
    ms,
  );
}

/** Chromium processes under this test process (the server runs in it, and launches the browser). */
function chromiumUnderUs(): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm: comm ?? '' }));
  const ours = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
    }
  }
  return table.filter((p) => ours.has(p.pid) && /chrom/i.test(p.comm)).map((p) => `${p.pid} ${p.comm}`);
}

/** The Chromium processes still under us after `ms` (none, as soon as they are gone). */
async function noChromiumWithin(ms: number): Promise<string[]> {
  let left: string[] = [];
  await waitFor(
    'no Chromium under us',
    () => {
      left = chromiumUnderUs();
      return left.length === 0 ? true : undefined;
    },
    ms,
  ).catch(() => undefined);
  return left;
}

async function screenshotRows(runId: string): Promise<number> {
  const row = await withTestSql(server.database, (sql) =>
    sql.get<{ n: number }>('select count(*) as n from functional_screenshots where run_id = ?', runId),
  );
  return Number(row!.n);
}

describe('UI runs', () => {
  it('runs two pages in Chromium, judges their rules, keeps timings and screenshots for the owner only, reports and deletes them', async () => {
    const id = await start(
      uiPlan('Two pages', [
        {
          name: 'Home',
          url: `${origin}/home`,
          validations: [
            { type: 'contains_text', expected_value: 'Welcome home' },
            { type: 'element_exists', expected_value: '#app' },
            { type: 'page_title', expected_value: 'Home' },
          ],
        },
        {
          name: 'Shop',
          url: `${origin}/shop`,
          validations: [{ type: 'element_exists', expected_value: '#cart' }],
        },
      ]),
    );
    const done = await until(id, (r) => r.status !== 'running');
    expect(done.status).toBe('failed');
    expect(pages.counts.get('/home')).toBeGreaterThanOrEqual(1);
    expect(pages.counts.get('/shop')).toBeGreaterThanOrEqual(1);
    const [home, shop] = done.validation_results;
    expect(home).toMatchObject({ api_name: 'Home', status_code: 200, success: true });
    expect(home!.validation_details.map((d) => [d.type, d.passed])).toEqual([
      ['contains_text', true],
      ['element_exists', true],
      ['page_title', true],
    ]);
    expect(shop).toMatchObject({ api_name: 'Shop', success: false });
    expect(shop!.validation_details[0]).toMatchObject({ type: 'element_exists', passed: false });
    // Measured in the browser: the navigation timings are in order.
    const timings = home!.ui!.timings!;
    expect(timings.ttfb).toBeGreaterThan(0);
    expect(timings.load).toBeGreaterThanOrEqual(timings.dom_content_loaded);
    expect(done.timeline_data).toHaveLength(2);

    // Every step keeps a screenshot, the failed one a failure screenshot too.
    const shots = [...home!.ui!.screenshots, ...shop!.ui!.screenshots];
    expect(shots.length).toBeGreaterThanOrEqual(2);
    expect(shop!.ui!.screenshots.some((s) => s.failure)).toBe(true);
    expect(await screenshotRows(id)).toBe(shots.length);
    const url = `/api/functional/screenshot/${id}/${shots[0]!.id}`;
    const image = await call('GET', url, alice.token);
    expect(image.statusCode, image.body).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('no-store');
    expect([...image.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    // Another user's: not found; the owner named by another: refused.
    expect((await call('GET', url, bob.token)).statusCode).toBe(404);
    expect((await call('GET', `${url}?user_email=${alice.email}`, bob.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/functional/screenshot/${id}/ss_none`, alice.token)).statusCode).toBe(404);

    // Each rule of each step is a test case of the reports (docs/adr/0029-postman-collections.md §3).
    const junit = await call('GET', `/api/functional/test-report/${id}?format=junit`, alice.token);
    expect(junit.statusCode).toBe(200);
    expect(junit.body.match(/<testcase /g)).toHaveLength(4);
    expect(junit.body).toContain('<failure');

    const deleted = await call('DELETE', `/api/functional/delete-result/${id}`, alice.token);
    expect(deleted.statusCode).toBe(200);
    expect(await screenshotRows(id)).toBe(0);
    expect((await call('GET', url, alice.token)).statusCode).toBe(404);
  });

  it('runs a Selenium-style script and refuses one with an unknown action by name and line', async () => {
    const script = (actions: string[]) =>
      [
        'execution:',
        '- executor: selenium',
        '  scenario: form',
        'scenarios:',
        '  form:',
        '    requests:',
        `    - url: ${origin}/form`,
        '      label: Form',
        '      actions:',
        ...actions.map((a) => `      - ${a}`),
      ].join('\n');
    const good = script(['typeByID(name): Ada', 'clickByID(go)', 'assertTextByID(out): Hello Ada']);
    const plan = (content: string) => ({
      test_name: 'Selenium form',
      source: 'script_input',
      source_page: 'functional-script-input',
      test_framework: 'selenium',
      script_content: content,
    });

    const parsed = await call('POST', '/api/functional/parse-script', alice.token, {
      script_content: good,
      test_framework: 'selenium',
    });
    expect(parsed.statusCode).toBe(200);
    expect(parsed.json()).toMatchObject({
      apis: [
        {
          name: 'Form',
          url: `${origin}/form`,
          method: 'GET',
          actions: [
            { kind: 'type', source: { action: 'typeByID', line: 10 } },
            { kind: 'click', source: { action: 'clickByID', line: 11 } },
            { kind: 'assertText', source: { action: 'assertTextByID', line: 12 } },
          ],
        },
      ],
      execution: { iterations: 1 },
    });

    const id = await start(plan(good));
    const done = await until(id, (r) => r.status !== 'running');
    expect(done.status, JSON.stringify(done.validation_results[0]?.ui?.actions)).toBe('completed');
    expect(done.validation_results[0]!.ui!.actions.map((a) => [a.action, a.passed])).toEqual([
      ['typeByID', true],
      ['clickByID', true],
      ['assertTextByID', true],
    ]);

    // Without test_framework, the selenium executor says it runs in a browser: run-test runs it there,
    // as parse-script reads it (docs/reference/02-running.md §3 "Selenium-style scripts").
    const unnamed = { ...plan(good), test_framework: undefined };
    const detected = await until(await start(unnamed), (r) => r.status !== 'running');
    expect(detected.status).toBe('completed');
    expect(detected.validation_results[0]!.ui!.actions.map((a) => a.action)).toEqual([
      'typeByID',
      'clickByID',
      'assertTextByID',
    ]);

    const bad = script(['clickByID(go)', 'hoverByID(go)']);
    for (const [url, body] of [
      ['/api/functional/run-test', plan(bad)],
      ['/api/functional/parse-script', { script_content: bad, test_framework: 'selenium' }],
      ['/api/functional/parse-script', { script_content: bad }],
    ] as const) {
      const refused = await call('POST', url, alice.token, body);
      expect(refused.statusCode, url).toBe(400);
      const answer = refused.json<{
        code: string;
        detail: string;
        line: number;
        warnings: { line?: number; effect: string; message: string }[];
      }>();
      expect(answer.code).toBe('SCRIPT_NOT_RUNNABLE');
      expect(answer.detail).toContain('hoverByID (line 11)');
      expect(answer.line).toBe(11);
      expect(answer.warnings.map((w) => [w.line, w.effect])).toEqual([[11, 'refused']]);
      expect(answer.warnings[0]!.message).toMatch(/^hoverByID is not an action AnybodyQA runs/);
    }
  });

  it("keeps a user's second run waiting while another user's run takes the free browser, tells each its place as it is, and a stop mid-run closes the browser", async () => {
    // Three slow pages: the run holds its browser until it is stopped.
    const slow = uiPlan(
      'Slow',
      [1, 2, 3].map((n) => ({ name: `Slow ${n}`, url: `${origin}/slow` })),
    );
    const home = (name: string) => uiPlan(name, [{ name: 'Home', url: `${origin}/home` }]);
    const slowHits = () => pages.counts.get('/slow') ?? 0;
    const hits = slowHits();
    const first = await start(slow);
    await until(first, () => slowHits() > hits, 15_000);
    // A browser is free, but Alice's runs hold their share of one.
    const second = await start(home('Waiting'));
    expect(await until(second, (r) => r.queue_position === 1, 10_000)).toMatchObject({ status: 'running' });
    const status = await call('GET', `/api/functional/get-test-status/${second}`, alice.token);
    expect(status.json()).toEqual({ test_id: second, status: 'running' });
    // Bob's run takes the free browser at once.
    const bobs = await start(slow, bob.token);
    await until(bobs, () => slowHits() > hits + 1, 15_000, bob.token);
    expect((await result(bobs, bob.token)).queue_position ?? null).toBeNull();
    // Carol's run waits for a browser, and is next: Alice's second run waits for her own first.
    const carol = (await registerAndLogin(server)).token;
    const third = await start(home('Behind'), carol);
    await until(third, (r) => r.queue_position === 1, 10_000, carol);
    expect(await result(second)).toMatchObject({ status: 'running', queue_position: 2 });
    // Carol leaves the queue when stopped there; Alice's run is next again.
    const left = await call('POST', `/api/functional/stop-test/${third}`, carol);
    expect(left.json()).toEqual({ test_id: third, status: 'stopped' });
    expect(await result(second)).toMatchObject({ status: 'running', queue_position: 1 });
    // Bob's browser is freed, and stays free: Alice still holds her share.
    const bobStopped = await call('POST', `/api/functional/stop-test/${bobs}`, bob.token);
    expect(bobStopped.json()).toEqual({ test_id: bobs, status: 'stopped' });
    expect(await result(second)).toMatchObject({ status: 'running', queue_position: 1 });

    const stopped = await call('POST', `/api/functional/stop-test/${first}`, alice.token);
    expect(stopped.json()).toEqual({ test_id: first, status: 'stopped' });
    // The queued run gets a browser once Alice's first lets hers go.
    const next = await until(second, (r) => r.status !== 'running');
    expect(next.status).toBe('completed');
    expect(next.queue_position ?? null).toBeNull();

    // Stopped while its page loads, with nothing queued: no Chromium is left.
    const last = await start(slow);
    const before = slowHits();
    await until(last, () => slowHits() > before, 15_000);
    expect(chromiumUnderUs().length).toBeGreaterThan(0);
    const stoppedAgain = await call('POST', `/api/functional/stop-test/${last}`, alice.token);
    expect(stoppedAgain.json()).toEqual({ test_id: last, status: 'stopped' });
    expect(await noChromiumWithin(3_000)).toEqual([]);
  }, 60_000);

  it('stops a page that never yields once it has been silent for the step time-out, stores what the run measured, and frees its browser', async () => {
    const loops = pages.counts.get('/loop') ?? 0;
    const id = await start(
      uiPlan('Never yields', [
        { name: 'Home', url: `${origin}/home` },
        { name: 'Loop', url: `${origin}/loop` },
        { name: 'Shop', url: `${origin}/shop` },
      ]),
    );
    await until(id, () => (pages.counts.get('/loop') ?? 0) > loops, 15_000);
    const looping = Date.now();
    const done = await until(id, (r) => r.status !== 'running');
    // AQA_UI_STEP_TIMEOUT_MS=10000, and a few seconds to kill the browser and store the run.
    expect(Date.now() - looping).toBeLessThan(10_000 + 8_000);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      'The browser was stopped during step 2 of 3 ("Loop"): its page did not answer for 10 s (its script never yielded); the steps after it did not run',
    );
    expect(done.validation_results.map((c) => [c.api_name, c.success, c.error ?? null])).toEqual([
      ['Home', true, null],
      [
        'Loop',
        false,
        'The page did not answer for 10 s (its script never yielded); the browser was stopped.',
      ],
    ]);
    // The screenshot taken before is kept, and no Chromium is left.
    expect(done.validation_results[0]!.ui!.screenshots).toHaveLength(1);
    expect(await screenshotRows(id)).toBe(1);
    expect(await noChromiumWithin(3_000)).toEqual([]);
    // The browser's turn is free: the next run starts at once.
    const next = await start(uiPlan('Next', [{ name: 'Home', url: `${origin}/home` }]));
    const after = await until(next, (r) => r.status !== 'running');
    expect(after.status).toBe('completed');
  }, 60_000);

  it('refuses a page on a denied host with 403 TARGET_REFUSED before anything opens', async () => {
    const refused = await call(
      'POST',
      '/api/functional/run-test',
      alice.token,
      uiPlan('Denied', [{ name: 'Denied', url: 'http://127.0.0.2:9/page' }]),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'TARGET_REFUSED' });
  });
});

describe('a server that shuts down during a UI run', () => {
  it('stops the run, stores it saying why, and leaves no Chromium', async () => {
    const own = await startTestServer({ AQA_BROWSER_PATH: CHROMIUM });
    try {
      const { token } = await registerAndLogin(own);
      const hits = pages.counts.get('/slow') ?? 0;
      const response = await own.request({
        method: 'POST',
        url: '/api/functional/run-test',
        token,
        body: uiPlan('Shutdown', [{ name: 'Slow', url: `${origin}/slow` }]),
      });
      const id = response.json<{ test_id: string }>().test_id;
      await waitFor(
        'the run to open the slow page',
        () => ((pages.counts.get('/slow') ?? 0) > hits ? true : undefined),
        15_000,
        50,
      );
      expect(chromiumUnderUs().length).toBeGreaterThan(0);
      await own.close();
      expect(await noChromiumWithin(3_000)).toEqual([]);
      const row = await withTestSql(own.database, (sql) =>
        sql.get('select status, error from functional_runs where id = ?', id),
      );
      expect(row).toMatchObject({ status: 'stopped', error: 'Stopped because the server shut down' });
    } finally {
      removeDir(own.dataDir);
    }
  });
});

describe('a server without a browser', () => {
  it('refuses a UI run with 503 BROWSER_UNAVAILABLE saying what to install', async () => {
    const bare = await startTestServer({ AQA_BROWSER_PATH: '/nonexistent/chromium' });
    try {
      const { token } = await registerAndLogin(bare);
      const response = await bare.request({
        method: 'POST',
        url: '/api/functional/run-test',
        token,
        body: uiPlan('No browser', [{ name: 'Home', url: `${origin}/home` }]),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'BROWSER_UNAVAILABLE' });
      expect(response.json<{ detail: string }>().detail).toContain('/nonexistent/chromium');
    } finally {
      await closeTestServer(bare);
    }
  });
});
