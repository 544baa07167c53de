import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UiBrowserPool } from './browser-pool';
import { DURATION_GRACE_MS } from './run-watchdog';
import { startTestSite, type TestSite } from './test-site';
import {
  CHROMIUM,
  ShotStore,
  noChromiumWithin,
  scriptPlan,
  seleniumScript,
  uiPlan,
  until,
} from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * The hard bounds of a UI run (docs/adr/0011-playwright-runs-selenium-ui-tests.md "Hard bounds"), in the
 * real Chromium: a page whose script never yields is stopped once it has not answered for the step
 * time-out, and a run is stopped at its test duration and grace whatever its pages do. The run ends with
 * what it measured, and no Chromium is left.
 */

let site: TestSite;

beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site.close();
});

/** A run starts Chromium and opens real pages: more than vitest's default 20 s on a busy machine. */
const BROWSER_TEST_MS = 60_000;

describe('a page whose script never yields', () => {
  it(
    'is stopped once it has not answered for the step time-out: the step fails in words, the steps after it do not run, and the browser is gone',
    async () => {
      const stepTimeoutMs = 2_000;
      const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs });
      const store = new ShotStore();
      const live: string[] = [];
      const yaml = seleniumScript(site.url(''), [
        '    - label: Home',
        '      url: /pass',
        '    - label: Spin',
        '      url: /spin',
        '      actions:',
        '      - screenshot(before.png)',
        '      - clickByID(spin)',
        '      - assertTitle(Spinner)',
        '    - label: After',
        '      url: /form',
      ]);
      const spins = site.hits.get('/spin') ?? 0;
      const forms = site.hits.get('/form') ?? 0;
      const handle = createUiRunner(pool)(scriptPlan(yaml), {
        saveScreenshot: store.save,
        onCall: (call) => live.push(call.api_name),
      });
      await until(() => (site.hits.get('/spin') ?? 0) > spins);
      const spinning = Date.now();
      const outcome = await handle.result;
      const tookMs = Date.now() - spinning;

      const words = 'The page did not answer for 2 s (its script never yielded); the browser was stopped.';
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toBe(
        'The browser was stopped during step 2 of 3 ("Spin"): its page did not answer for 2 s (its script never yielded); the steps after it did not run',
      );
      expect(outcome.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
        ['Home', true, null],
        ['Spin', false, words],
      ]);
      expect(live).toEqual(['Home', 'Spin']);
      // What the stuck step did before it stuck is kept: its page as it loaded, its screenshot, its
      // passed action.
      const spin = outcome.validation_results[1]!;
      expect(spin.ui?.screenshots.map((s) => s.label)).toEqual(['Page', 'before.png']);
      expect(spin.ui?.screenshots.every((s) => store.shots.has(s.id))).toBe(true);
      expect(spin.ui?.pages?.map((p) => p.screenshot?.label)).toEqual(['Page']);
      // The click may have timed out (failed) before the browser was stopped; nothing after it ran.
      const actions = spin.ui?.actions.map((a) => [a.action, a.passed]) ?? [];
      expect(actions[0]).toEqual(['screenshot', true]);
      expect(actions.slice(1)).toEqual(actions.length > 1 ? [['clickByID', false]] : []);
      // The page took its load, the screenshot and the click, then stopped answering: the run ended within
      // the step time-out of that and a few seconds to kill the browser, on a busy machine.
      expect(tookMs).toBeLessThan(stepTimeoutMs + 8_000);
      expect(site.hits.get('/form') ?? 0).toBe(forms);
      expect(await noChromiumWithin(3_000)).toEqual([]);

      // The browser's turn was given back: the next run gets it at once.
      const places: (number | null)[] = [];
      const next = await createUiRunner(pool)(uiPlan([{ name: 'Home', url: site.url('/pass') }]), {
        saveScreenshot: store.save,
        onQueued: (p) => places.push(p),
      }).result;
      expect(next.status).toBe('completed');
      expect(places).toEqual([]);
      await pool.close();
      expect(await noChromiumWithin(3_000)).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  it('is stopped at the end of the test duration and its grace when the step time-out is longer', async () => {
    // A step time-out longer than the test: only the duration bounds this run.
    const pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 600_000 });
    const outcome = await createUiRunner(pool)(
      uiPlan(
        [
          { name: 'Home', url: site.url('/pass') },
          { name: 'Loop', url: site.url('/loop') },
          { name: 'After', url: site.url('/pass') },
        ],
        { test_duration: 1 },
      ),
      { saveScreenshot: new ShotStore().save },
    ).result;
    await pool.close();

    const tookMs = Date.parse(outcome.end_time) - Date.parse(outcome.start_time);
    expect(tookMs).toBeGreaterThanOrEqual(60_000);
    // The grace, and a few seconds to kill the browser on a busy machine.
    expect(tookMs).toBeLessThan(60_000 + DURATION_GRACE_MS + 5_000);
    expect(outcome.error).toBe(
      'The browser was stopped during step 2 of 3 ("Loop"): the test duration of 1 min ended; the steps after it did not run',
    );
    expect(outcome.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
      ['Home', true, null],
      ['Loop', false, 'The test duration of 1 min ended during this step; the browser was stopped.'],
    ]);
    expect(await noChromiumWithin(3_000)).toEqual([]);
  }, 120_000);
});
