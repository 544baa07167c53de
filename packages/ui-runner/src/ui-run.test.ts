import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionalRunOutcome } from '@aqa/engine';
import type { CallResult } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { startTestSite, type TestSite } from './test-site';
import { CHROMIUM, ShotStore, scriptPlan, seleniumScript, uiPlan } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * The UI runner against pages this test serves on loopback, in the real Chromium (docs/design.md §9
 * "UI tests"): each check passing and failing, the measured timings and vitals, console errors and
 * failed requests, screenshots, and every Selenium-style action family passing and failing.
 */

let site: TestSite;
let pool: UiBrowserPool;

beforeAll(async () => {
  site = await startTestSite();
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 2, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

function byName(outcome: FunctionalRunOutcome, name: string): CallResult {
  const step = outcome.validation_results.find((c) => c.api_name === name);
  if (step === undefined) throw new Error(`no step ${name}`);
  return step;
}

/** A run starts Chromium and opens real pages: more than vitest's default 20 s on a busy machine. */
const BROWSER_TEST_MS = 60_000;

describe('a UI URL plan', () => {
  it(
    'judges each check, measures the pages and keeps a screenshot of every step',
    async () => {
      const store = new ShotStore();
      const live: string[] = [];
      const plan = uiPlan([
        {
          name: 'Home',
          url: site.url('/pass'),
          validations: [
            { type: 'contains_text', expected_value: 'Hello shoppers' },
            { type: 'element_exists', expected_value: '#cart' },
            { type: 'page_title', expected_value: 'Shop home' },
          ],
        },
        {
          name: 'Missing',
          url: site.url('/missing'),
          validations: [
            { type: 'contains_text', expected_value: 'Cart: 2 items' },
            { type: 'element_exists', expected_value: '//div[@id="cart"]' },
            { type: 'page_title', expected_value: 'Shop home' },
          ],
        },
        { name: 'Slow', url: site.url('/slow') },
        { name: 'Errors', url: site.url('/errors') },
        { name: 'Shift', url: site.url('/shift') },
        {
          name: 'Posted',
          method: 'POST',
          url: site.url('/method'),
          body: 'qty=3',
          validations: [{ type: 'contains_text', expected_value: 'method POST' }],
        },
        { name: 'Gone', url: site.url('/gone') },
      ]);
      const outcome = await createUiRunner(pool)(plan, {
        saveScreenshot: store.save,
        onCall: (call) => live.push(call.api_name),
      }).result;

      expect(outcome.status).toBe('failed');
      expect(outcome.error).toBeNull();
      expect(live).toEqual(['Home', 'Missing', 'Slow', 'Errors', 'Shift', 'Posted', 'Gone']);
      expect(outcome.summary).toEqual({
        total_requests: 7,
        successful_requests: 5,
        failed_requests: 2,
        validation_failures: 4,
      });

      const home = byName(outcome, 'Home');
      expect(home.success).toBe(true);
      expect(home.status_code).toBe(200);
      expect(home.validation_details.map((d) => [d.type, d.expected, d.passed])).toEqual([
        ['contains_text', 'Hello shoppers', true],
        ['element_exists', '#cart', true],
        ['page_title', 'Shop home', true],
      ]);
      expect(home.validation_details[2]?.actual).toBe('Shop home');
      expect(home.ui?.vitals.fcp).toBeGreaterThan(0);
      expect(home.ui?.vitals.lcp).toBeGreaterThan(0);
      expect(home.ui?.timings?.load).toBeGreaterThanOrEqual(home.ui?.timings?.ttfb ?? Infinity);

      const missing = byName(outcome, 'Missing');
      expect(missing.success).toBe(false);
      expect(missing.validation_details.map((d) => [d.passed, d.actual, d.message])).toEqual([
        [
          false,
          'Nothing to buy here\n\nNo cart on this page.',
          'expected the page to contain "Cart: 2 items"; it does not',
        ],
        [false, '0 elements', 'expected an element matching //div[@id="cart"]; none is on the page'],
        [false, 'Missing parts', 'expected the title "Shop home", got "Missing parts"'],
      ]);
      // Each judgement also as a code and parameters, for screens in another language (docs/adr/0025-phrases.md).
      expect(missing.validation_details.map((d) => d.message_phrase)).toEqual([
        { code: 'ui.contains.failed', params: { expected: 'Cart: 2 items' } },
        { code: 'ui.selector.failed', params: { expected: '//div[@id="cart"]' } },
        { code: 'ui.title.failed', params: { expected: 'Shop home', title: 'Missing parts' } },
      ]);
      expect(missing.error).toBe('expected the page to contain "Cart: 2 items"; it does not');
      expect(missing.error_phrase).toEqual({
        code: 'ui.contains.failed',
        params: { expected: 'Cart: 2 items' },
      });

      // The target answers /slow after 1.5 s: the browser's own timing says so.
      expect(byName(outcome, 'Slow').ui?.timings?.ttfb).toBeGreaterThanOrEqual(1500);
      expect(byName(outcome, 'Slow').response_time).toBeGreaterThanOrEqual(1500);

      const errors = byName(outcome, 'Errors');
      expect(errors.ui?.console_errors).toContain('the widget failed to start');
      expect(errors.ui?.failed_requests).toEqual([
        { method: 'GET', url: site.url('/no-such-image.png'), error: 'HTTP 404' },
      ]);
      expect(errors.validation_details[0]?.message).toBe(
        'the page answered status 200 (a page without checks passes on 2xx or 3xx)',
      );

      expect(byName(outcome, 'Shift').ui?.vitals.cls).toBeGreaterThan(0);
      expect(byName(outcome, 'Home').ui?.vitals.cls).toBe(0);
      expect(byName(outcome, 'Posted').success).toBe(true);
      expect(site.hits.get('/method')).toBeGreaterThanOrEqual(1);

      const gone = byName(outcome, 'Gone');
      expect(gone.status_code).toBe(404);
      expect(gone.validation_details[0]).toMatchObject({ passed: false, actual: '404' });

      // One screenshot per step: "Step" when it passed, "Failure" when it failed; real JPEGs.
      const labels = outcome.validation_results.map((c) => c.ui?.screenshots.map((s) => s.label).join());
      expect(labels).toEqual(['Step', 'Failure', 'Step', 'Step', 'Step', 'Step', 'Failure']);
      const shot = store.shots.get(home.ui?.screenshots[0]?.id ?? '');
      expect(shot?.jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

      expect(outcome.timeline_data).toHaveLength(7);
      expect(outcome.timeline_data[3]).toMatchObject({ requests: 1, failures: 0 });
      expect(outcome.timeline_data[2]!.response_time).toBe(byName(outcome, 'Slow').response_time);
      expect(outcome.timeline_data[3]!.time).toBeGreaterThan(outcome.timeline_data[2]!.time + 1.4);
      expect(outcome.api_results.map((r) => [r.name, r.status])).toEqual([
        ['Home', 'success'],
        ['Missing', 'failed'],
        ['Slow', 'success'],
        ['Errors', 'success'],
        ['Shift', 'success'],
        ['Posted', 'success'],
        ['Gone', 'failed'],
      ]);
    },
    BROWSER_TEST_MS,
  );
});

describe('a Selenium-style script', () => {
  it(
    'runs every action family, with fallback locators and stored variables used as ${name}',
    async () => {
      const store = new ShotStore();
      const yaml = seleniumScript(
        site.url(''),
        [
          '    - label: Fill the form',
          '      url: /form',
          '      actions:',
          '      - assertTitle(Order form)',
          '      - typeByID(name): ${who}',
          '      - selectByName(size): Large',
          '      - storeValueByName(size): size',
          '      - storeString(calm): mood',
          '      - typeByCSS(#note): ${mood}',
          '      - assertValueByID(note): calm',
          '      - doubleClickByID(twice)',
          '      - assertTextByID(greeting): Double hello',
          '      - clickByID(later)',
          '      - waitForByID(arrived, visible): 2s',
          '      - storeTextByID(arrived): arrival',
          '      - screenshot(filled.png)',
          '      - type: click',
          '        locators:',
          '        - id: not-there',
          '        - css: "#send"',
          '      - storeTitle(): title',
          '      - pauseFor(50ms)',
          '      assert:',
          '      - Ordered by Ada',
          '    - label: Result',
          '      actions:',
          '      - assertTextByXPath(//p[@id="result"]): Ordered by Ada, size l, note calm',
          '      - go(/form?from=${arrival})',
          '      - waitForByID(arrived, notpresent): 1s',
          '      - clickByLinkText(Back to the shop)',
          '      - assertTitle(Shop home)',
          '    - label: Keys',
          '      url: /form',
          '      actions:',
          '      - typeByName(customer): ${title}',
          '      - keysByName(customer): KEY_ENTER',
          '      - assertTextByID(result): Ordered by Order received, size s, note',
          '      - go(/form)',
          '      - typeByID(name): ${size}',
          '      - submitByID(note)',
          '      - assertTitle(Order received)',
        ],
        { who: 'Ada' },
      );
      const outcome = await createUiRunner(pool)(scriptPlan(yaml), { saveScreenshot: store.save }).result;

      expect(outcome.validation_results.map((c) => [c.api_name, c.success, c.error])).toEqual([
        ['Fill the form', true, null],
        ['Result', true, null],
        ['Keys', true, null],
      ]);
      expect(outcome.status).toBe('completed');
      const fill = byName(outcome, 'Fill the form');
      const actions = fill.ui?.actions ?? [];
      expect(actions.map((a) => a.action)).toEqual([
        'assertTitle',
        'typeByID',
        'selectByName',
        'storeValueByName',
        'storeString',
        'typeByCSS',
        'assertValueByID',
        'doubleClickByID',
        'assertTextByID',
        'clickByID',
        'waitForByID',
        'storeTextByID',
        'screenshot',
        'click',
        'storeTitle',
        'pauseFor',
        'assert',
      ]);
      expect(actions.every((a) => a.passed && a.line !== undefined)).toBe(true);
      // The fallback: the first locator finds nothing, the second is used.
      expect(actions[13]).toMatchObject({
        locator: 'css: #send',
        message: 'clicked the element by css: #send',
      });
      expect(actions[1]?.message).toBe('typed "Ada" into the element by id: name');
      expect(actions[5]?.message).toBe('typed "calm" into the element by css: #note');
      expect(actions[14]?.message).toBe('stored the title "Order received" as title');
      // The page the step opened and the one its submit opened are kept as they loaded (ui.pages).
      expect(fill.ui?.screenshots.map((s) => s.label)).toEqual(['Page', 'filled.png', 'Page', 'Step']);
      expect(fill.ui?.pages?.map((p) => [new URL(p.url).pathname, p.screenshot?.label])).toEqual([
        ['/form', 'Page'],
        ['/result', 'Page'],
      ]);
      // The submit opened /result: its timings are measured.
      expect(fill.ui?.timings?.ttfb).toBeGreaterThan(0);
      expect(fill.validation_details.map((d) => [d.type, d.passed])).toEqual([
        ['page_title', true],
        ['contains_text', true],
        ['contains_text', true],
        ['regex', true],
      ]);
      expect(byName(outcome, 'Result').ui?.actions[1]?.message).toBe(
        `opened ${site.url('/form?from=Arrived')} (status 200)`,
      );
      expect(byName(outcome, 'Keys').ui?.actions[1]?.message).toBe(
        'pressed Enter in the element by name: customer',
      );
    },
    BROWSER_TEST_MS,
  );

  it(
    'fails a step at its failed action with the locator, what was expected and what was found',
    async () => {
      const store = new ShotStore();
      // Only the first step opens the form; the others act on it as it is, none of them changing it.
      const step = (label: string, ...actions: string[]): string[] => [
        `    - label: ${label}`,
        ...(label === 'click' ? ['      url: /form'] : []),
        '      actions:',
        ...actions.map((a) => `      - ${a}`),
      ];
      const yaml = seleniumScript(site.url(''), [
        ...step('click', 'clickByID(nowhere)', 'assertTitle(Never checked)'),
        ...step('doubleClick', 'doubleClickByXPath(//button[@id="none"])'),
        ...step('type', 'typeByName(nobody): text'),
        ...step('keys', 'keysByID(name): KEY_WHATEVER'),
        ...step('select', 'selectByID(size): Huge'),
        ...step('submit', 'submitByID(twice)'),
        ...step('waitFor', 'waitForByID(never, visible): 300ms'),
        ...step('assertText', 'assertTextByID(greeting): Goodbye'),
        ...step('assertValue', 'assertValueByID(name): Bob'),
        ...step('assertTitle', 'assertTitle(Checkout)'),
        ...step('store', 'storeTextByCSS(.absent): x'),
        ...step('fallbacks', '{type: click, locators: [{id: a1}, {css: ".a2"}]}'),
        ...step('not a field', 'typeByID(greeting): text'),
      ]);
      const outcome = await createUiRunner(pool)(scriptPlan(yaml), { saveScreenshot: store.save }).result;

      expect(outcome.status).toBe('failed');
      const failed = Object.fromEntries(
        outcome.validation_results.map((c) => [c.api_name, c.ui?.actions.at(-1)?.message]),
      );
      expect(failed).toEqual({
        click: 'expected an element by id: nowhere; none is on the page',
        doubleClick: 'expected an element by xpath: //button[@id="none"]; none is on the page',
        type: 'expected an element by name: nobody; none is on the page',
        keys: 'KEY_WHATEVER is not a key AnybodyQA knows (KEY_ENTER, KEY_TAB, KEY_ESCAPE, arrows, F1–F12 …)',
        select: 'expected the option "Huge" in the select by id: size; it has "Small", "Large"',
        submit: 'expected a form around the element by id: twice; there is none',
        waitFor: 'expected an element by id: never to be visible within 300 ms; none was',
        assertText: 'expected the text "Goodbye" in the element by id: greeting, found "Hello"',
        assertValue: 'expected the value "Bob" in the element by id: name, found ""',
        assertTitle: 'expected the title "Checkout", got "Order form"',
        store: 'expected an element by css: .absent; none is on the page',
        fallbacks: 'expected an element by id: a1, css: .a2; none is on the page',
        'not a field': expect.stringMatching(
          /^could not type into the element by id: greeting: Element is not an <input>/,
        ) as unknown,
      });
      expect(outcome.validation_results.every((c) => !c.success)).toBe(true);
      const click = byName(outcome, 'click');
      // The failed action ends the step: the assertion after it is skipped, and said to be.
      expect(click.ui?.actions).toHaveLength(1);
      expect(click.error).toBe(
        "clickByID (line 11) failed: expected an element by id: nowhere; none is on the page; the step's last action was skipped",
      );
      // The page the step opened, as it loaded, then the page as the action failed on it.
      expect(click.ui?.screenshots.map((s) => [s.label, s.failure, store.shots.has(s.id)])).toEqual([
        ['Page', false, true],
        ['Failure', true, true],
      ]);
      expect(byName(outcome, 'assertText').validation_details[0]).toMatchObject({
        expected: 'Goodbye',
        actual: 'Hello',
        passed: false,
      });
      expect(outcome.summary.validation_failures).toBe(3);
    },
    BROWSER_TEST_MS,
  );
});
