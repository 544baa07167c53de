// Measures how long the script editors take to answer after a large paste (docs/performance.md
// "Script editors and large pastes"): a real paste (Ctrl+V from the clipboard) of 60 KB, 300 KB and 5 MB
// into the functional script editor and the performance script panel, in headless Chromium, against a
// built server started by hand. Time is from the paste key to the next key typed after it being handled
// and a frame drawn — what a user waits for before the editor answers again.
//
//   npm run build && PORT=5330 DATA_DIR=$(mktemp -d) node apps/server/dist/main.mjs &
//   npx tsx scripts/measure-editor-paste.ts http://127.0.0.1:5330
import { CHROMIUM_ARGS } from '@aqa/ui-runner/chromium-args';
import { chromium, type Locator, type Page } from 'playwright-core';

const BASE = process.argv[2] ?? 'http://127.0.0.1:5330';
const LIMIT_MS = Number(process.env.MEASURE_LIMIT_MS ?? 120_000);
const SIZES = (process.env.MEASURE_SIZES ?? '60000,300000,5000000').split(',').map(Number);
const DEMO = { username: 'demo@anybodyqa.dev', password: 'demo1234' };

/**
 * A Taurus script of about `bytes` characters: one request block after another, ending in a new line;
 * with MEASURE_WARNED=1 every request also holds a JSR223 block, which the reader warns about on its line.
 */
const WARNED = process.env.MEASURE_WARNED === '1';
function taurusScript(bytes: number): string {
  let text =
    'execution:\n  - executor: jmeter\n    concurrency: 1\n    hold-for: 1m\n    scenario: big\n\nscenarios:\n  big:\n    requests:\n';
  for (let i = 0; text.length < bytes; i++) {
    text += `      - url: https://example.test/items/${i}\n        method: GET\n        label: Item ${i}\n        assert:\n          - contains:\n              - "200"\n            subject: http-code\n${WARNED ? '        jsr223:\n          - script-text: vars.put("a", "b")\n' : ''}`;
  }
  return text;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${BASE}/login`);
  await page.getByTestId('login-username').fill(DEMO.username);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard$/);
}

const ONLY = process.env.MEASURE_SCREENS?.split(',');
const SCREENS: Record<string, (page: Page) => Promise<Locator>> = {
  async functional(page) {
    await page.goto(`${BASE}/functional-test/script-input`);
    const editor = page.getByTestId('script-content');
    await editor.waitFor();
    return editor;
  },
  async performance(page) {
    await page.goto(`${BASE}/create-test/url-input`);
    await page.getByTestId('plan-name').fill('paste');
    await page.getByTestId('api-0-url').fill('https://example.test/items');
    await page.getByTestId('generate-plan').click();
    await page.getByTestId('script-edit-toggle').click();
    const editor = page.getByTestId('script-text');
    await editor.waitFor();
    return editor;
  },
};

/**
 * The milliseconds from Ctrl+V to the key typed after it being handled and drawn, and the slowest of ten
 * keys typed after that; null when the page did not answer within the limit.
 */
async function measure(
  page: Page,
  editor: Locator,
  text: string,
): Promise<{ paste: number; slowest: number } | null> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  const started = performance.now();
  const work = (async () => {
    await page.keyboard.press('ControlOrMeta+V');
    await page.keyboard.press('x');
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
    );
    const paste = performance.now() - started;
    // Then ten keys typed one after another, as a person goes on typing: the slowest one's wait.
    let slowest = 0;
    for (const key of 'abcdefghij') {
      const before = performance.now();
      await page.keyboard.press(key);
      await page.evaluate(
        () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
      );
      slowest = Math.max(slowest, performance.now() - before);
    }
    return { paste, slowest };
  })();
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), LIMIT_MS));
  return Promise.race([work, timeout]);
}

/** What the page says after the paste: the editor's length, and a refusal if one is shown. */
async function outcome(page: Page): Promise<{ editorLength?: number; refusal?: string }> {
  return page.evaluate(() => {
    // A code editor's whole text is on its host (e2e/editor-text.ts); a text area holds its own.
    const box = document.querySelector('[data-testid="script-content"], [data-testid="script-text"]');
    const host = box?.closest<HTMLElement & { editorText?: string }>('[data-code-editor]');
    const text = host ? host.editorText : (box as HTMLTextAreaElement | null)?.value;
    const refusal = document.querySelector('[data-testid$="-too-long"]');
    return { editorLength: text?.length, refusal: refusal?.textContent ?? undefined };
  });
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const results: object[] = [];
try {
  for (const [screen, open] of Object.entries(SCREENS).filter(([name]) => !ONLY || ONLY.includes(name))) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
      const page = await context.newPage();
      try {
        await signIn(page);
        const editor = await open(page);
        const ms = await measure(page, editor, taurusScript(size));
        const after = ms === null ? {} : await outcome(page);
        results.push({
          screen,
          bytes: size,
          pasteMs: ms === null ? `over ${LIMIT_MS}` : Math.round(ms.paste),
          slowestKeyMs: ms === null ? undefined : Math.round(ms.slowest),
          ...after,
        });
        console.log(JSON.stringify(results.at(-1)));
      } finally {
        await context.close().catch(() => {});
      }
    }
  }
} finally {
  await browser.close();
}
