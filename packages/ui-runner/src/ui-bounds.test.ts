import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UiBrowserPool } from './browser-pool';
import { startTestSite, type TestSite } from './test-site';
import { CHROMIUM, ShotStore, chromiumDescendants, noChromiumWithin, uiPlan, until } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * A UI run's bounds (docs/design.md §9 "UI tests", docs/adr/0015-target-guard.md,
 * docs/adr/0011-playwright-runs-selenium-ui-tests.md "Hard bounds"): the target guard on every request
 * the page makes and on what it sends outside HTTP, the step time-out, the browser queue and one user's
 * share of it, no browser installed, and stop closing the browser. A page that never yields:
 * ui-hard-bounds.test.ts.
 */

let site: TestSite;
/** Another loopback address, which the guard below refuses: what it receives must stay 0. */
let denied: TestSite;
/** Stands for the AnybodyQA server itself: its port is the guard's own port. */
let self: TestSite;

beforeAll(async () => {
  [site, denied, self] = await Promise.all([startTestSite(), startTestSite('127.0.0.2'), startTestSite()]);
});
afterAll(async () => {
  await Promise.all([site.close(), denied.close(), self.close()]);
});

/** A run starts Chromium and opens real pages: more than vitest's default 20 s on a busy machine. */
const BROWSER_TEST_MS = 60_000;

const received = (s: TestSite): number => [...s.hits.values()].reduce((a, b) => a + b, 0);

describe('the target guard in a UI run', () => {
  it(
    'refuses pages, images and redirects to refused addresses, and says why',
    async () => {
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
      const selfPort = Number(new URL(self.url('/')).port);
      const plan = uiPlan([
        { name: 'Denied page', url: denied.url('/pass') },
        { name: 'Denied image', url: site.url(`/embed?src=${encodeURIComponent(denied.url('/pixel.png'))}`) },
        { name: 'Redirected', url: site.url(`/redirect?to=${encodeURIComponent(denied.url('/pass'))}`) },
        {
          name: 'Redirected to https',
          url: site.url(`/redirect?to=${encodeURIComponent(denied.url('/pass').replace('http:', 'https:'))}`),
        },
        { name: 'Server itself', url: self.url('/pass') },
        { name: 'Allowed', url: site.url('/pass') },
      ]);
      const outcome = await createUiRunner(pool)(plan, {
        saveScreenshot: new ShotStore().save,
        guard: { allow: [], deny: ['127.0.0.2'], ownPorts: [selfPort] },
      }).result;
      await pool.close();

      const reason = 'Requests to 127.0.0.2 are refused: it is in AQA_TARGETS_DENY (127.0.0.2).';
      const [page, image, redirected, tunnelled, itself, allowed] = outcome.validation_results;
      expect(page?.success).toBe(false);
      expect(page?.error).toBe(`The page did not load: ${reason}`);
      expect(image?.success).toBe(true);
      expect(image?.ui?.failed_requests).toEqual([
        { method: 'GET', url: denied.url('/pixel.png'), error: reason },
      ]);
      // The redirect is followed by the browser, past any route handler: the guard's proxy refuses it.
      expect(redirected?.success).toBe(false);
      expect(redirected?.error).toBe(`The page did not load: ${reason}`);
      // HTTPS goes through a CONNECT tunnel, which the proxy refuses before it opens.
      expect(tunnelled?.error).toBe(`The page did not load: ${reason}`);
      expect(itself?.error).toBe(
        `The page did not load: Requests to 127.0.0.1:${selfPort} are refused: that is this AnybodyQA server itself.`,
      );
      expect(allowed?.success).toBe(true);
      expect(received(denied)).toBe(0);
      expect(received(self)).toBe(0);
      expect(site.hits.get('/redirect')).toBe(2);
    },
    BROWSER_TEST_MS,
  );
});

/**
 * A canary on the denied address: a UDP socket counting the datagrams it receives and a TCP listener
 * counting the connections it accepts.
 */
async function startCanary(host: string) {
  const udp = createSocket('udp4');
  let datagrams = 0;
  const kinds = new Map<string, number>();
  udp.on('message', (data) => {
    datagrams++;
    // STUN (and TURN) messages start with the two zero bits of RFC 5389; QUIC with the long header's 1.
    const kind = (data[0]! & 0xc0) === 0 ? 'STUN/TURN' : (data[0]! & 0x80) !== 0 ? 'QUIC' : 'other';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  });
  await new Promise<void>((resolve) => udp.bind(0, host, resolve));
  const tcp = createServer((socket) => socket.destroy());
  let connections = 0;
  tcp.on('connection', () => connections++);
  await new Promise<void>((resolve) => tcp.listen(0, host, resolve));
  return {
    udpPort: udp.address().port,
    tcpPort: (tcp.address() as AddressInfo).port,
    received: () => ({ datagrams, connections }),
    /** The datagrams by kind, for a failure's message. */
    kinds: () => JSON.stringify(Object.fromEntries(kinds)),
    close: async () => {
      udp.close();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

describe('traffic a page sends outside HTTP', () => {
  it(
    'sends no WebRTC (STUN, TURN, ICE checks) or WebTransport packet to a refused address',
    async () => {
      const canary = await startCanary('127.0.0.2');
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
      try {
        const probe = `/webrtc?host=127.0.0.2&udp=${canary.udpPort}&tcp=${canary.tcpPort}&wait=3000`;
        const outcome = await createUiRunner(pool)(
          uiPlan([
            {
              name: 'WebRTC',
              url: site.url(probe),
              validations: [{ type: 'contains_text', expected_value: 'probe sent' }],
            },
            // The browser resolves no name itself: a named host is the proxy's to resolve, and loads.
            { name: 'By name', url: site.url('/pass').replace('127.0.0.1', 'localhost') },
          ]),
          { saveScreenshot: new ShotStore().save, guard: { allow: [], deny: ['127.0.0.2'], ownPorts: [] } },
        ).result;
        // The page made its peer connections and WebTransport session (so the probe did run) …
        expect(outcome.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
          ['WebRTC', true, null],
          ['By name', true, null],
        ]);
        // … and nothing of it reached the refused address, however long it is given.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(canary.received(), canary.kinds()).toEqual({ datagrams: 0, connections: 0 });
      } finally {
        await pool.close();
        await canary.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a target the guard lets through but nobody answers', () => {
  it(
    "says the connection was refused, not the proxy's 502 as if the target had answered",
    async () => {
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
      const port = await closedPort();
      const plan = uiPlan([
        { name: 'Closed http', url: `http://127.0.0.1:${port}/` },
        { name: 'Closed https', url: `https://127.0.0.1:${port}/` },
        {
          name: 'Closed image',
          url: site.url(`/embed?src=${encodeURIComponent(`http://127.0.0.1:${port}/a.png`)}`),
        },
      ]);
      const outcome = await createUiRunner(pool)(plan, {
        saveScreenshot: new ShotStore().save,
        guard: { allow: [], deny: [], ownPorts: [] },
      }).result;
      await pool.close();

      const reason = `Connection refused by 127.0.0.1:${port}`;
      const [plain, tunnelled, image] = outcome.validation_results;
      expect(plain?.status_code).toBeNull();
      expect(plain?.error).toBe(`The page did not load: ${reason}`);
      expect(tunnelled?.error).toBe(`The page did not load: ${reason}`);
      expect(image?.success).toBe(true);
      expect(image?.ui?.failed_requests).toEqual([
        { method: 'GET', url: `http://127.0.0.1:${port}/a.png`, error: reason },
      ]);
    },
    BROWSER_TEST_MS,
  );
});

describe('the browser pool', () => {
  it('says in a sentence that no browser is installed, and a run then fails with it', async () => {
    const pool = new UiBrowserPool({
      executablePath: '/nonexistent/chromium',
      maxBrowsers: 1,
      stepTimeoutMs: 1000,
    });
    const sentence =
      'UI tests need Chromium, and none was found at /nonexistent/chromium: install it (apt install chromium) or set AQA_BROWSER_PATH';
    expect(pool.browserProblem()).toBe(sentence);
    const before = received(site);
    const outcome = await createUiRunner(pool)(uiPlan([{ name: 'Home', url: site.url('/pass') }]), {
      saveScreenshot: new ShotStore().save,
    }).result;
    expect(outcome).toMatchObject({ status: 'failed', error: sentence, validation_results: [] });
    expect(received(site)).toBe(before);
  });

  it('reads its settings from the environment and refuses a count that is not one', () => {
    const pool = UiBrowserPool.fromEnv({
      AQA_BROWSER_PATH: '/opt/chrome/chrome',
      AQA_UI_BROWSERS: '3',
      AQA_UI_STEP_TIMEOUT_MS: '5000',
    });
    expect([pool.executablePath, pool.maxBrowsers, pool.stepTimeoutMs]).toEqual([
      '/opt/chrome/chrome',
      3,
      5000,
    ]);
    expect(UiBrowserPool.fromEnv({ PATH: '' })).toMatchObject({ maxBrowsers: 2, stepTimeoutMs: 30_000 });
    expect(() => UiBrowserPool.fromEnv({ AQA_UI_BROWSERS: 'two' })).toThrow(
      'AQA_UI_BROWSERS must be a whole number of at least 1, not "two"',
    );
  });

  it(
    'queues a run while the only browser is taken, telling it its place, and fails a timed-out step in words',
    async () => {
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 800 });
      const run = createUiRunner(pool);
      const firstPlaces: (number | null)[] = [];
      const secondPlaces: (number | null)[] = [];
      const first = run(
        uiPlan([
          { name: 'Too slow', url: site.url('/delay?ms=2000') },
          { name: 'Then fine', url: site.url('/form') },
        ]),
        { saveScreenshot: new ShotStore().save, onQueued: (p) => firstPlaces.push(p) },
      );
      const second = run(uiPlan([{ name: 'Home', url: site.url('/pass') }], { iterations: 2 }), {
        saveScreenshot: new ShotStore().save,
        onQueued: (p) => secondPlaces.push(p),
      });
      expect(secondPlaces).toEqual([1]);
      expect(pool.waiting).toBe(1);
      const [a, b] = await Promise.all([first.result, second.result]);
      await pool.close();

      expect(firstPlaces).toEqual([]);
      expect(secondPlaces).toEqual([1, null]);
      // The second run got the browser only when the first had ended.
      expect(Date.parse(b.start_time)).toBeGreaterThanOrEqual(Date.parse(a.end_time));
      expect(b.status).toBe('completed');
      expect(b.validation_results.map((c) => [c.api_name, c.iteration])).toEqual([
        ['Home', 1],
        ['Home', 2],
      ]);
      expect(a.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
        ['Too slow', false, 'The page did not load: the page did not load within 800 ms (the step time-out)'],
        ['Then fine', true, null],
      ]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'closes the browser when a run is stopped mid-step, leaving no Chromium process',
    async () => {
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
      const steps: string[] = [];
      const handle = createUiRunner(pool)(
        uiPlan([
          { name: 'Home', url: site.url('/pass') },
          { name: 'Long', url: site.url('/delay?ms=8000') },
        ]),
        { saveScreenshot: new ShotStore().save, onCall: (c) => steps.push(c.api_name) },
      );
      // Wait until the first step has ended and the second is loading.
      const deadline = Date.now() + 15_000;
      while ((steps.length === 0 || (site.hits.get('/delay') ?? 0) === 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const running = chromiumDescendants();
      expect(running.length).toBeGreaterThan(0);

      const asked = Date.now();
      await handle.stop();
      const outcome = await handle.result;
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(outcome.status).toBe('stopped');
      expect(outcome.validation_results.map((c) => c.api_name)).toEqual(['Home']);
      // Chromium's helpers may take a moment to follow their main process out.
      const gone = Date.now() + 2000;
      while (running.some((pid) => chromiumDescendants().includes(pid)) && Date.now() < gone) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(chromiumDescendants()).toEqual([]);
      await pool.close();
    },
    BROWSER_TEST_MS,
  );
});

describe("one user's share of the browsers", () => {
  it(
    "keeps a user's second run waiting while another user's run takes the free browser, and tells each its place as it is",
    async () => {
      // Two browsers, one a user (the default share).
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 2, stepTimeoutMs: 10_000 });
      expect(pool.maxPerUser).toBe(1);
      const run = createUiRunner(pool);
      const slow = uiPlan([{ name: 'Slow', url: site.url('/delay?ms=30000') }]);
      const quick = uiPlan([{ name: 'Home', url: site.url('/pass') }]);
      const places = {
        alice2: [] as (number | null)[],
        bob: [] as (number | null)[],
        carol: [] as (number | null)[],
      };
      const delays = () => site.hits.get('/delay') ?? 0;
      const before = delays();

      const alice1 = run(slow, { saveScreenshot: new ShotStore().save, owner: 'alice' });
      await until(() => delays() === before + 1);
      const alice2 = run(quick, {
        saveScreenshot: new ShotStore().save,
        owner: 'alice',
        onQueued: (p) => places.alice2.push(p),
      });
      // Alice's second run waits although a browser is free: she holds her share.
      expect(places.alice2).toEqual([1]);
      // Bob's run takes the free browser at once.
      const bob = run(slow, {
        saveScreenshot: new ShotStore().save,
        owner: 'bob',
        onQueued: (p) => places.bob.push(p),
      });
      await until(() => delays() === before + 2);
      expect(places.bob).toEqual([]);
      // Carol's run waits for a browser, and is next: Alice's run waits for her own first.
      const carol = run(quick, {
        saveScreenshot: new ShotStore().save,
        owner: 'carol',
        onQueued: (p) => places.carol.push(p),
      });
      expect(places.carol).toEqual([1]);
      expect(places.alice2).toEqual([1, 2]);
      expect(pool.waiting).toBe(2);

      // Bob's browser goes to Carol, told she was next; Alice's run is next now.
      await bob.stop();
      const c = await carol.result;
      expect(c.status).toBe('completed');
      expect(places.carol).toEqual([1, null]);
      expect(places.alice2).toEqual([1, 2, 1]);
      // Alice's own first run ends: her second takes the browser.
      await alice1.stop();
      const a2 = await alice2.result;
      expect(a2.status).toBe('completed');
      expect(places.alice2).toEqual([1, 2, 1, null]);
      await pool.close();
      expect(await noChromiumWithin(3_000)).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  it('reads the share from the environment and refuses one that would let a user hold every browser', () => {
    expect(UiBrowserPool.fromEnv({ PATH: '' }).maxPerUser).toBe(1);
    expect(UiBrowserPool.fromEnv({ AQA_UI_BROWSERS: '6' }).maxPerUser).toBe(3);
    expect(UiBrowserPool.fromEnv({ AQA_UI_BROWSERS: '1' }).maxPerUser).toBe(1);
    expect(UiBrowserPool.fromEnv({ AQA_UI_BROWSERS: '4', AQA_UI_BROWSERS_PER_USER: '3' }).maxPerUser).toBe(3);
    expect(() => UiBrowserPool.fromEnv({ AQA_UI_BROWSERS: '4', AQA_UI_BROWSERS_PER_USER: '4' })).toThrow(
      'AQA_UI_BROWSERS_PER_USER must be below AQA_UI_BROWSERS (4) so that one user cannot hold every browser',
    );
    expect(() => UiBrowserPool.fromEnv({ AQA_UI_BROWSERS_PER_USER: 'one' })).toThrow(
      'AQA_UI_BROWSERS_PER_USER must be a whole number of at least 1, not "one"',
    );
  });
});
