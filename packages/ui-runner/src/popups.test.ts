import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChromeRecording, readPlaywrightScript, readSeleniumIdeProject } from '@aqa/converters';
import { FunctionalPlanSchema, type CallResult, type FunctionalPlanInput } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, serveDirectory, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * Popups and other windows (docs/adr/0030-recorded-ui-tests.md §5) in the real Chromium, against pages
 * served on loopback: a window opened by a click, in each recorder's own words — Selenium IDE's
 * opensWindow and selectWindow, the Recorder's `target`, codegen's waitForEvent('popup') — with the steps
 * after it acting in the popup, a navigation after selectWindow going to the selected window, and the
 * popup measured in ui.pages. Designed failures show the steps really act where they say.
 */

const PAGES = {
  'home.html': `<!doctype html><title>Home</title><p id="who">home</p>
    <a href="help.html" target="_blank">Help</a>
    <button id="open" onclick="window.open('help.html', 'help')">Open help</button>`,
  'help.html': `<!doctype html><title>Help</title><h1>Help</h1>
    <label for="q">Search</label><input id="q">
    <button id="go" onclick="document.getElementById('out').textContent = 'Searched ' + document.getElementById('q').value">Go</button>
    <p id="out"></p><button id="hi" onclick="alert('Hi from help')">Hi</button>`,
  'more.html': `<!doctype html><title>More</title><h1>More help</h1>`,
};

/** Puppeteer Replay's own pages (test-fixtures/chrome-recorder/resources): main.html opens popup.html. */
const REPLAY = fileURLToPath(new URL('../test-fixtures/chrome-recorder/resources', import.meta.url));
const BROWSER_TEST_MS = 90_000;

let dir: string;
let site: { origin: string; close: () => Promise<void> };
let replay: { origin: string; close: () => Promise<void> };
let pool: UiBrowserPool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aqa-popups-'));
  for (const [name, html] of Object.entries(PAGES)) writeFileSync(join(dir, name), html);
  site = await serveDirectory(dir);
  replay = await serveDirectory(REPLAY);
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
  await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(plan: FunctionalPlanInput) {
  const parsed = FunctionalPlanSchema.parse(plan);
  return await createUiRunner(pool)(parsed, { saveScreenshot: new ShotStore().save }).result;
}

/** The actions a step ran, as written, with whether each passed. */
const ran = (call: CallResult | undefined): [string, boolean][] =>
  (call?.ui?.actions ?? []).map((a) => [a.action, a.passed]);

/** The pages the step opened: each address's path and the action that opened it. */
const opened = (call: CallResult | undefined): [string, number | null, boolean][] =>
  (call?.ui?.pages ?? []).map((p) => [new URL(p.url).pathname, p.action, p.screenshot !== null]);

type Row = [string, string?, string?, Record<string, unknown>?];

function side(rows: Row[]) {
  const text = JSON.stringify({
    name: 'Popups',
    url: 'http://localhost:8080',
    tests: [
      {
        id: 't',
        name: 'Help',
        commands: rows.map(([command, target = '', value = '', extra = {}], i) => ({
          id: `c${i}`,
          command,
          target,
          value,
          ...extra,
        })),
      },
    ],
  });
  return readSeleniumIdeProject({ name: 'popups.side', text }, { baseUrl: site.origin }).plan;
}

describe('Selenium IDE: a window opened by a click, selected, navigated', () => {
  it(
    'acts in the popup after selectWindow, and open navigates the selected window, not the first',
    async () => {
      const outcome = await run(
        side([
          ['open', '/home.html'],
          ['storeWindowHandle', 'root'],
          ['click', 'id=open', '', { opensWindow: true, windowHandleName: 'help' }],
          ['selectWindow', 'handle=${help}'],
          ['type', 'id=q', 'frames'],
          ['click', 'id=go'],
          ['assertText', 'id=out', 'Searched frames'],
          // The popup's own alert, checked as Selenium IDE checks one.
          ['click', 'id=hi'],
          ['assertAlert', 'Hi from help'],
          ['open', '/more.html'],
          ['assertTitle', 'More'],
          ['selectWindow', 'handle=${root}'],
          // The first window is where it was: the open went to the popup.
          ['assertTitle', 'Home'],
          ['assertText', 'id=who', 'home'],
          // The popup's text is not in the first window: this verify fails, and the test goes on.
          ['verifyText', 'id=out', 'Searched frames'],
        ]),
      );
      const call = outcome.validation_results[0];
      expect(ran(call).filter(([, passed]) => !passed)).toEqual([
        ['verifyText id=out Searched frames', false],
      ]);
      expect(call?.error).toMatch(
        /^Selenium IDE test 'Help', command 15 `verifyText id=out Searched frames` — expected an element by id: out; none is on the page/,
      );
      // The pages the step opened: the first window's, the popup when it opened, the popup's next page.
      expect(opened(call)).toEqual([
        ['/home.html', 0, true],
        ['/help.html', 3, true],
        ['/more.html', 10, true],
      ]);
      // Each measured in its own window: the popup's own navigation timings and paint.
      for (const visit of call?.ui?.pages ?? []) {
        expect(visit.timings).not.toBeNull();
        expect(visit.vitals.fcp).toBeGreaterThan(0);
      }
      // The step ended in the first window: its address is the step's.
      expect(new URL(call!.url).pathname).toBe('/home.html');
    },
    BROWSER_TEST_MS,
  );
});

describe("Chrome Recorder: a step's target", () => {
  /** Puppeteer Replay's runner test "should be able to replay actions with popups", as the Recorder exports it, and more. */
  const recording = (popupTarget: string, timeout?: number) => {
    const p = replay.origin;
    const text = JSON.stringify({
      title: 'popup',
      steps: [
        {
          type: 'navigate',
          url: `${p}/main.html`,
          assertedEvents: [{ title: '', type: 'navigation', url: `${p}/main.html` }],
        },
        {
          type: 'click',
          selectors: [['aria/Open Popup'], ['#popup']],
          target: 'main',
          offsetX: 1,
          offsetY: 1,
        },
        {
          type: 'click',
          selectors: [['aria/Button in Popup'], ['body > button']],
          target: popupTarget,
          offsetX: 1,
          offsetY: 1,
          ...(timeout === undefined ? {} : { timeout }),
        },
        // Only the popup has this heading: the step runs there or fails.
        {
          type: 'waitForExpression',
          target: popupTarget,
          expression: "document.querySelector('h1')?.textContent === 'Popup'",
        },
        { type: 'close', target: popupTarget },
        // Back in the page the recording began in: its own button, counted by main.html.
        { type: 'click', selectors: [['#test']], target: 'main', offsetX: 1, offsetY: 1 },
        { type: 'waitForExpression', target: 'main', expression: 'window.buttonClicks.join() === "0"' },
      ],
    });
    return readChromeRecording({ name: 'popup.json', text }).plan;
  };

  it(
    'acts in the popup at that address, closes it, and goes back to main',
    async () => {
      const outcome = await run(recording(`${replay.origin}/popup.html`));
      const call = outcome.validation_results[0];
      expect(call?.error ?? null).toBeNull();
      expect(ran(call).map(([action]) => action)).toEqual([
        `navigate ${replay.origin}/main.html`,
        `navigate navigation to ${replay.origin}/main.html`,
        'click aria/Open Popup',
        `target ${replay.origin}/popup.html`,
        'click aria/Button in Popup',
        `waitForExpression document.querySelector('h1')?.textContent === 'Popup'`,
        'close',
        'target main',
        'click #test',
        'waitForExpression window.buttonClicks.join() === "0"',
      ]);
      expect(opened(call)).toEqual([
        ['/main.html', 0, true],
        ['/popup.html', 3, true],
      ]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'fails at the step whose target never opens, naming it',
    async () => {
      const outcome = await run(recording(`${replay.origin}/other.html`, 1000));
      expect(outcome.validation_results[0]?.error).toBe(
        `Chrome Recorder 'popup', step 3 \`target ${replay.origin}/other.html\` — expected a window (or a frame) at ${replay.origin}/other.html within 1 s; the open windows are at ${replay.origin}/main.html, ${replay.origin}/popup.html; the step's 6 remaining actions were skipped`,
      );
    },
    BROWSER_TEST_MS,
  );
});

describe('Chrome Recorder: a target that is a frame', () => {
  it(
    "acts in the frame at the target's address, as Replay's runner does for an out-of-process iframe",
    async () => {
      const p = replay.origin;
      // Replay's runner test "should record interactions with OOPIFs", its iframe served on the same host here.
      const text = JSON.stringify({
        title: 'Test Recording',
        steps: [
          {
            type: 'navigate',
            url: `${p}/oopif.html`,
            assertedEvents: [{ title: '', type: 'navigation', url: `${p}/oopif.html` }],
          },
          {
            type: 'click',
            target: `${p}/iframe1.html`,
            selectors: [['aria/To iframe 2'], ['body > a']],
            offsetX: 1,
            offsetY: 1,
            assertedEvents: [{ type: 'navigation', title: '', url: `${p}/iframe2.html` }],
          },
        ],
      });
      const outcome = await run(readChromeRecording({ name: 'oopif.json', text }).plan);
      const call = outcome.validation_results[0];
      expect(call?.error ?? null).toBeNull();
      expect(ran(call)).toEqual([
        [`navigate ${p}/oopif.html`, true],
        [`navigate navigation to ${p}/oopif.html`, true],
        [`target ${p}/iframe1.html`, true],
        ['click aria/To iframe 2', true],
        // The frame went on to iframe2.html: checked in the frame, not the page.
        [`click navigation to ${p}/iframe2.html`, true],
      ]);
    },
    BROWSER_TEST_MS,
  );
});

describe("Playwright codegen: waitForEvent('popup')", () => {
  const script = (lastTarget: string) => `import { test, expect } from '@playwright/test';

test('help', async ({ page }) => {
  await page.goto('${site.origin}/home.html');
  const page1Promise = page.waitForEvent('popup');
  await page.getByRole('link', { name: 'Help' }).click();
  const page1 = await page1Promise;
  await page1.getByLabel('Search').fill('tabs');
  await page1.getByRole('button', { name: 'Go' }).click();
  await expect(page1.locator('#out')).toHaveText('Searched tabs');
  await expect(page).toHaveTitle('Home');
  await page1.goto('${site.origin}/more.html');
  await expect(page1.getByRole('heading')).toHaveText('More help');
  await page1.close();
  await expect(${lastTarget}.locator('#who')).toHaveText('home', { timeout: 500 });
});
`;

  it(
    'acts in the popup on page1 lines and in the first page on page lines',
    async () => {
      const plan = readPlaywrightScript({ name: 'help.spec.js', text: script('page') }).plan;
      const outcome = await run(plan);
      const call = outcome.validation_results[0];
      expect(call?.error ?? null).toBeNull();
      expect(ran(call).every(([, passed]) => passed)).toBe(true);
      expect(opened(call)).toEqual([
        ['/home.html', 0, true],
        ['/help.html', 2, true],
        ['/more.html', 10, true],
      ]);
      expect(new URL(call!.url).pathname).toBe('/home.html');
    },
    BROWSER_TEST_MS,
  );

  it(
    'a line on the closed popup fails at that line',
    async () => {
      const plan = readPlaywrightScript({ name: 'help.spec.js', text: script('page1') }).plan;
      const outcome = await run(plan);
      expect(outcome.validation_results[0]?.error).toMatch(
        /^expect\(page1\.locator\('#who'\)\)\.toHaveText\('home', \{ timeout: 500 \}\) \(line 15\) failed: the window the actions act in was closed: select another window before this step$/,
      );
    },
    BROWSER_TEST_MS,
  );
});
