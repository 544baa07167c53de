import { readFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChromeRecording } from '@aqa/converters';
import { FunctionalPlanSchema, type CallResult, type UiAction } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * Chrome DevTools Recorder exports run by the UI runner in the real Chromium (docs/adr/0030-recorded-ui-tests.md
 * §2): Puppeteer Replay's own runner-test recordings and pages (test-fixtures/chrome-recorder, copied in with its provenance), served
 * here on loopback, each checked afterwards the way Replay's runner test checks it; then every step type
 * the reader maps, and failures named by the recording's own step.
 */

const FIXTURES = fileURLToPath(new URL('../test-fixtures/chrome-recorder/', import.meta.url));
const RESOURCES = join(FIXTURES, 'resources');

let server: Server;
let prefix: string;
let pool: UiBrowserPool;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(RESOURCES, path);
    if (!file.startsWith(RESOURCES)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        const type = extname(file) === '.html' ? 'text/html; charset=utf-8' : 'application/octet-stream';
        res.writeHead(200, { 'content-type': type }).end(body);
      },
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  prefix = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
});

const BROWSER_TEST_MS = 90_000;

/** A check the test appends after a recording: the expression Replay's runner test asserts, waited for. */
const check = (expression: string): UiAction => ({
  kind: 'waitForExpression',
  source: { action: `check ${expression}`, path: 'the test' },
  expression,
  timeout_ms: 2_000,
});

/** What Replay's runner test checks after each recording (test/runner.test.ts), as page expressions. */
const CHECKS: Record<string, string> = {
  '01-should-navigate-to-the-right-URL.json': 'location.href === "__PREFIX__/empty.html"',
  '02-should-be-able-to-replay-mouse-click-steps.json': 'window.buttonClicks.join() === "0,1,2,3,4"',
  '06-should-be-able-to-replay-click-steps-on-checkboxes.json':
    "document.querySelector('input').checked === true",
  '07-should-be-able-to-replay-keyboard-events.json':
    'document.querySelector("#log").innerText.trim() === "one:1\\ntwo:2"',
  '11-should-be-able-to-override-the-value-in-text-input.json':
    'document.querySelector("#prefilled").value === "cba"',
  '16-should-be-able-to-replay-ARIA-selectors-on-inputs.json':
    'document.activeElement.id === "name" && innerWidth === 800 && innerHeight === 600',
};

async function run(steps: { name: string; actions: UiAction[] }[]) {
  const plan = FunctionalPlanSchema.parse({
    test_name: 'Recordings',
    test_type: 'ui',
    source: 'ui_url_input',
    apis: steps.map((s) => ({ name: s.name, url: '', actions: s.actions })),
  });
  return await createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result;
}

/** A hand-written recording read as the upload would be. */
function recorded(title: string, steps: unknown[]): { name: string; actions: UiAction[] } {
  const text = JSON.stringify({ title, steps }).replaceAll('__PREFIX__', prefix);
  const read = readChromeRecording({ name: `${title}.json`, text });
  const api = read.plan.apis[0];
  if (api === undefined) throw new Error('no step');
  return { name: api.name, actions: api.actions };
}

const summary = (call: CallResult | undefined) => ({
  name: call?.api_name,
  success: call?.success,
  error: call?.error,
  failed: call?.ui?.actions.filter((a) => !a.passed).map((a) => `${a.action}: ${a.message}`),
});

describe('Chrome Recorder exports in the UI runner', () => {
  it(
    "runs Puppeteer Replay's six runner-test recordings, each with the effect Replay checks",
    async () => {
      const names = (await readdir(join(FIXTURES, 'recordings'))).sort();
      expect(names).toEqual(Object.keys(CHECKS));
      const steps = await Promise.all(
        names.map(async (name) => {
          const text = (await readFile(join(FIXTURES, 'recordings', name), 'utf8')).replaceAll(
            '__PREFIX__',
            prefix,
          );
          const read = readChromeRecording({ name, text });
          const api = read.plan.apis[0];
          if (api === undefined) throw new Error('no step');
          return {
            name: api.name,
            actions: [...api.actions, check(CHECKS[name]!.replaceAll('__PREFIX__', prefix))],
          };
        }),
      );
      const outcome = await run(steps);
      expect(outcome.validation_results.map(summary)).toEqual(
        steps.map((s) => ({ name: s.name, success: true, error: null, failed: [] })),
      );
      expect(outcome.status).toBe('completed');
      // Every recorded step ran, and the check after it.
      const clicks = outcome.validation_results[1]?.ui?.actions ?? [];
      expect(clicks.map((a) => a.action)).toEqual([
        `navigate ${prefix}/main.html`,
        'click #test',
        'click #test',
        'click #test',
        'click #test',
        'click #test',
        'check window.buttonClicks.join() === "0,1,2,3,4"',
      ]);
      expect(clicks[3]?.message).toBe('clicked the element by css: #test with the right button');
      expect(outcome.validation_results[5]?.ui?.actions[2]?.message).toBe(
        'clicked the element by aria: Name:',
      );
    },
    BROWSER_TEST_MS,
  );

  it(
    'runs hover, scroll, waitForElement, waitForExpression, an asserted navigation and close',
    async () => {
      const outcome = await run([
        recorded('Everything', [
          { type: 'setViewport', width: 800, height: 600 },
          { type: 'navigate', url: '__PREFIX__/main.html' },
          { type: 'hover', selectors: ['#hover-button'] },
          { type: 'waitForElement', selectors: ['#nowhere', 'button'], operator: '>=', count: 5 },
          {
            type: 'waitForElement',
            selectors: ['#hover-button'],
            count: 1,
            operator: '==',
            properties: { textContent: 'Hovered' },
          },
          {
            type: 'waitForElement',
            selectors: ['[data-devtools-test]'],
            attributes: { 'data-devtools-test': 'selector-attribute' },
          },
          // Replay's inversion: waits until there is no longer such an element.
          { type: 'waitForElement', selectors: ['#form1-result:not(:empty)'], visible: false },
          { type: 'click', selectors: ['#form-button'], offsetX: 1, offsetY: 1 },
          {
            type: 'waitForExpression',
            expression: 'document.querySelector("#form1-result").textContent === "From 1 Submitted"',
          },
          {
            type: 'doubleClick',
            selectors: [['#shadow-root > span', '#inner-span']],
            offsetX: 1,
            offsetY: 1,
          },
          {
            type: 'click',
            selectors: ['aria/Page 2', 'text/Page 2'],
            offsetX: 1,
            offsetY: 1,
            assertedEvents: [{ type: 'navigation', url: '__PREFIX__/main2.html', title: '' }],
          },
          { type: 'click', selectors: ['xpath///*[@id="test"]'], offsetX: 1, offsetY: 1 },
          { type: 'waitForElement', selectors: ['text/Button clicked'] },
          { type: 'navigate', url: '__PREFIX__/scroll.html' },
          { type: 'scroll', selectors: ['body > div:nth-child(1)'], x: 0, y: 40 },
          { type: 'scroll', x: 40, y: 40 },
          {
            type: 'waitForExpression',
            expression:
              'scrollX === 40 && scrollY === 40 && document.querySelector("#overflow").scrollTop === 40',
          },
          { type: 'navigate', url: '__PREFIX__/scroll-into-view.html' },
          { type: 'click', selectors: [['button']], offsetX: 1, offsetY: 1 },
          { type: 'waitForElement', selectors: ['button'], properties: { innerText: 'clicked' } },
          { type: 'navigate', url: '__PREFIX__/select.html' },
          { type: 'change', selectors: ['aria/Select'], value: 'O2' },
          { type: 'waitForExpression', expression: 'document.querySelector("#select").value === "O2"' },
          { type: 'navigate', url: '__PREFIX__/input.html' },
          { type: 'change', selectors: ['#color'], value: '#333333' },
          {
            type: 'waitForExpression',
            expression: 'document.querySelector("#color").value === "#333333"',
          },
          { type: 'close' },
        ]),
      ]);
      expect(outcome.validation_results.map(summary)).toEqual([
        { name: 'Everything', success: true, error: null, failed: [] },
      ]);
      const actions = outcome.validation_results[0]?.ui?.actions ?? [];
      expect(actions.map((a) => [a.action, a.message])).toEqual([
        ['setViewport 800×600', 'set the viewport to 800×600'],
        [`navigate ${prefix}/main.html`, `opened ${prefix}/main.html (status 200)`],
        ['hover #hover-button', 'moved the mouse over the element by css: #hover-button'],
        [
          'waitForElement #nowhere',
          expect.stringMatching(
            /^there are at least 5 elements by css: #nowhere, css: button: found \d+ by css: button$/,
          ),
        ],
        [
          'waitForElement #hover-button',
          'there are exactly 1 element by css: #hover-button with the properties given: found 1 by css: #hover-button',
        ],
        [
          'waitForElement [data-devtools-test]',
          expect.stringContaining('with the attributes given: found 1 by'),
        ],
        [
          'waitForElement #form1-result:not(:empty)',
          'there are no longer at least 1 element by css: #form1-result:not(:empty): found 0',
        ],
        ['click #form-button', 'clicked the element by css: #form-button'],
        [
          'waitForExpression document.querySelector("#form1-result").textContent === "From 1 Submitted"',
          expect.stringContaining('is true'),
        ],
        [
          'doubleClick #shadow-root > span >> #inner-span',
          'double-clicked the element by css: #shadow-root > span >> #inner-span',
        ],
        ['click aria/Page 2', 'clicked the element by aria: Page 2'],
        [`click navigation to ${prefix}/main2.html`, `location.href === "${prefix}/main2.html" is true`],
        ['click xpath///*[@id="test"]', 'clicked the element by xpath: //*[@id="test"]'],
        ['waitForElement text/Button clicked', expect.stringContaining('found 1 by text: Button clicked')],
        [`navigate ${prefix}/scroll.html`, `opened ${prefix}/scroll.html (status 200)`],
        [
          'scroll body > div:nth-child(1)',
          'scrolled the element by css: body > div:nth-child(1) to x 0, y 40',
        ],
        ['scroll window 40, 40', 'ran the script'],
        [expect.stringContaining('waitForExpression scrollX === 40'), expect.stringContaining('is true')],
        [`navigate ${prefix}/scroll-into-view.html`, `opened ${prefix}/scroll-into-view.html (status 200)`],
        ['click button', 'clicked the element by css: button'],
        [
          'waitForElement button',
          expect.stringContaining('with the properties given: found 1 by css: button'),
        ],
        [`navigate ${prefix}/select.html`, `opened ${prefix}/select.html (status 200)`],
        ['change aria/Select', 'chose the option with the value "O2" in the select by aria: Select'],
        [expect.stringContaining('#select'), expect.stringContaining('is true')],
        [`navigate ${prefix}/input.html`, `opened ${prefix}/input.html (status 200)`],
        ['change #color', 'typed "#333333" into the element by css: #color'],
        [expect.stringContaining('#color'), expect.stringContaining('is true')],
        ['close', 'the recording closes its page here; the test ends'],
      ]);
    },
    BROWSER_TEST_MS,
  );

  it(
    "fails at the recording's own step, naming it, and skips the rest",
    async () => {
      const outcome = await run([
        recorded('Missing button', [
          { type: 'navigate', url: '__PREFIX__/main.html' },
          { type: 'click', selectors: ['#does-not-exist', 'aria/Nothing here'], offsetX: 1, offsetY: 1 },
          { type: 'click', selectors: ['#test'], offsetX: 1, offsetY: 1 },
        ]),
        recorded('Too few', [
          { type: 'navigate', url: '__PREFIX__/checkbox.html' },
          { type: 'waitForElement', selectors: ['input'], operator: '>=', count: 2, timeout: 300 },
        ]),
        recorded('Wrong attribute', [
          { type: 'navigate', url: '__PREFIX__/checkbox.html' },
          { type: 'waitForElement', selectors: ['input'], attributes: { type: 'radio' }, timeout: 300 },
        ]),
        recorded('No such option', [
          { type: 'navigate', url: '__PREFIX__/select.html' },
          { type: 'change', selectors: ['#select'], value: 'O9' },
        ]),
        recorded('Elsewhere', [
          { type: 'navigate', url: '__PREFIX__/main.html' },
          {
            type: 'click',
            selectors: ['#test'],
            offsetX: 1,
            offsetY: 1,
            timeout: 300,
            assertedEvents: [{ type: 'navigation', url: '__PREFIX__/main2.html' }],
          },
        ]),
      ]);
      expect(outcome.status).toBe('failed');
      expect(outcome.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
        [
          'Missing button',
          false,
          "Chrome Recorder 'Missing button', step 2 `click #does-not-exist` — expected an element by css: #does-not-exist, aria: Nothing here; none is on the page; the step's last action was skipped",
        ],
        [
          'Too few',
          false,
          "Chrome Recorder 'Too few', step 2 `waitForElement input` — expected at least 2 elements by css: input within 300 ms; found 1 by css: input",
        ],
        [
          'Wrong attribute',
          false,
          'Chrome Recorder \'Wrong attribute\', step 2 `waitForElement input` — expected at least 1 element by css: input with the attributes given within 300 ms; found 1 by css: input, and element 1 has the attribute type "checkbox", not "radio"',
        ],
        [
          'No such option',
          false,
          'Chrome Recorder \'No such option\', step 2 `change #select` — expected an option with the value "O9" in the select by css: #select; it has "O1", "O2"',
        ],
        [
          'Elsewhere',
          false,
          `Chrome Recorder 'Elsewhere', step 2 \`click navigation to ${prefix}/main2.html\` — expected location.href === "${prefix}/main2.html" to be true within 300 ms; it was false`,
        ],
      ]);
      expect(outcome.validation_results[0]?.ui?.actions.map((a) => a.passed)).toEqual([true, false]);
    },
    BROWSER_TEST_MS,
  );

  it(
    "enters a step's frame by its indices, as Replay does (Replay's main.html: a frame in a frame), and fails a step in the wrong frame",
    async () => {
      const outcome = await run([
        recorded('In frames', [
          { type: 'navigate', url: '__PREFIX__/main.html' },
          { type: 'click', frame: [0], selectors: [['aria/iframe button'], ['#in-iframe']] },
          {
            type: 'waitForExpression',
            expression: "document.getElementById('iframe').contentDocument.activeElement.id === 'in-iframe'",
          },
          { type: 'click', frame: [0, 0], selectors: [['#inner-iframe']] },
          { type: 'waitForElement', frame: [0, 0], selectors: [['#inner-iframe']], visible: true },
        ]),
        recorded('Wrong frame', [
          { type: 'navigate', url: '__PREFIX__/main.html' },
          { type: 'waitForElement', frame: [0], selectors: [['#inner-iframe']], timeout: 300 },
        ]),
      ]);
      expect(outcome.validation_results.map((r) => [r.api_name, r.success, r.error])).toEqual([
        ['In frames', true, null],
        [
          'Wrong frame',
          false,
          "Chrome Recorder 'Wrong frame', step 2 `waitForElement #inner-iframe` — expected at least 1 element by frame 0 >> css: #inner-iframe within 300 ms; found 0",
        ],
      ]);
      expect(outcome.validation_results[0]?.ui?.actions.map((a) => a.message)[1]).toBe(
        'clicked the element by frame 0 >> aria: iframe button',
      );
    },
    BROWSER_TEST_MS,
  );
});
