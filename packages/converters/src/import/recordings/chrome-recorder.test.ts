import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { recordingFixture } from '../../../test/fixtures';
import { ImportError } from '../import-model';
import { isChromeRecording, readChromeRecording } from './chrome-recorder';

const BASE = 'http://127.0.0.1:9';

/** A fixture of Puppeteer Replay's runner tests, its __PREFIX__ the base URL. */
function recording(name: string): { name: string; text: string } {
  const file = recordingFixture(`chrome-recorder/recordings/${name}`);
  return { name: file.name, text: new TextDecoder().decode(file.bytes).replaceAll('__PREFIX__', BASE) };
}

const flow = (steps: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'flow.json',
  text: JSON.stringify({ title: 'Sign in', steps, ...extra }),
});

function refusal(steps: unknown[], extra: Record<string, unknown> = {}): string {
  try {
    readChromeRecording(flow(steps, extra));
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as ImportError).message;
  }
  throw new Error('the recording was read');
}

describe('isChromeRecording', () => {
  it('knows a Recorder export by its title and typed steps', () => {
    expect(isChromeRecording({ title: 't', steps: [{ type: 'navigate' }] })).toBe(true);
    expect(isChromeRecording({ title: 't', steps: [] })).toBe(true);
    expect(isChromeRecording({ steps: [{ type: 'navigate' }] })).toBe(false);
    expect(isChromeRecording({ title: 't', steps: [{ url: 'x' }] })).toBe(false);
    expect(isChromeRecording({ title: 't', steps: {} })).toBe(false);
    expect(isChromeRecording([{ title: 't', steps: [] }])).toBe(false);
    // A Selenium IDE project is not one.
    expect(isChromeRecording({ name: 'p', url: 'x', tests: [{ commands: [] }] })).toBe(false);
  });
});

describe('readChromeRecording: the Recorder fixtures of Puppeteer Replay', () => {
  it('reads a navigation as one plan, one step named as the title, a go action with its source', () => {
    const read = readChromeRecording(recording('01-should-navigate-to-the-right-URL.json'));
    expect(read.format).toBe('chrome-recorder');
    expect(read.plan.test_name).toBe('should navigate to the right URL');
    expect(read.plan.apis).toHaveLength(1);
    expect(read.plan.apis[0]).toMatchObject({ name: 'should navigate to the right URL', url: '' });
    expect(read.plan.apis[0]?.actions).toEqual([
      {
        kind: 'go',
        url: `${BASE}/empty.html`,
        source: {
          action: `navigate ${BASE}/empty.html`,
          path: "Chrome Recorder 'should navigate to the right URL', step 1",
        },
      },
    ]);
    expect(read.counts).toEqual({ tests: 1, actions: 1, skipped: 0 });
    expect(read.warnings).toEqual([]);
    // The plan is one the model takes as it is.
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it('maps each mouse button and the offset', () => {
    const read = readChromeRecording(recording('02-should-be-able-to-replay-mouse-click-steps.json'));
    const clicks = read.plan.apis[0]?.actions.slice(1) ?? [];
    expect(clicks.map((a) => (a.kind === 'click' ? [a.button, a.offset, a.locators] : a.kind))).toEqual(
      ['left', 'middle', 'right', 'back', 'forward'].map((button) => [
        button,
        { x: 1, y: 1 },
        [{ by: 'css', value: '#test' }],
      ]),
    );
    expect(clicks[2]?.source).toEqual({
      action: 'click #test',
      path: "Chrome Recorder 'should be able to replay mouse click steps', step 4",
    });
  });

  it('reads keys, a change as type, a viewport and an aria/ selector', () => {
    const keys = readChromeRecording(recording('07-should-be-able-to-replay-keyboard-events.json'));
    expect(keys.plan.apis[0]?.actions.slice(1).map((a) => [a.kind, 'key' in a ? a.key : null])).toEqual([
      ['keyDown', 'Tab'],
      ['keyUp', 'Tab'],
      ['keyDown', '1'],
      ['keyUp', '1'],
      ['keyDown', 'Tab'],
      ['keyUp', 'Tab'],
      ['keyDown', '2'],
      ['keyUp', '2'],
    ]);
    const change = readChromeRecording(
      recording('11-should-be-able-to-override-the-value-in-text-input.json'),
    );
    expect(change.plan.apis[0]?.actions[1]).toMatchObject({
      kind: 'type',
      text: 'cba',
      locators: [{ by: 'css', value: '#prefilled' }],
      source: { action: 'change #prefilled' },
    });
    const aria = readChromeRecording(recording('16-should-be-able-to-replay-ARIA-selectors-on-inputs.json'));
    expect(aria.plan.apis[0]?.actions.slice(1)).toMatchObject([
      { kind: 'setViewport', width: 800, height: 600, source: { action: 'setViewport 800×600' } },
      { kind: 'click', locators: [{ by: 'aria', value: 'Name:' }], offset: { x: 1, y: 1 } },
    ]);
    expect(aria.warnings).toEqual([]);
    const checkbox = readChromeRecording(
      recording('06-should-be-able-to-replay-click-steps-on-checkboxes.json'),
    );
    expect(checkbox.plan.apis[0]?.actions[1]).toMatchObject({
      kind: 'click',
      locators: [{ by: 'css', value: 'input' }],
    });
    expect(checkbox.plan.apis[0]?.actions[1]).not.toHaveProperty('button');
  });
});

describe('readChromeRecording: every step type', () => {
  it('maps each step, its selectors in order with their prefixes and nested parts', () => {
    const read = readChromeRecording(
      flow(
        [
          {
            type: 'setViewport',
            width: 390,
            height: 844,
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 3,
          },
          { type: 'navigate', url: 'https://shop.test/' },
          {
            type: 'click',
            selectors: [
              ['aria/Sign in'],
              ['#host', 'pierce/#inner'],
              ['xpath///div', 'text/Hello', '#deep'],
              'text/Sign in',
              'xpath///*[@id="go"]',
              'pierce/#go',
              '#go',
            ],
            offsetX: 3.5,
            offsetY: 4,
            duration: 300,
          },
          { type: 'doubleClick', selectors: ['#twice'], button: 'secondary', offsetX: 1, offsetY: 2 },
          { type: 'change', selectors: ['#name'], value: '' },
          { type: 'hover', selectors: ['#menu'] },
          { type: 'scroll', selectors: ['#list'], x: 0, y: 40 },
          { type: 'scroll', x: 10, y: 20 },
          { type: 'scroll' },
          {
            type: 'waitForElement',
            selectors: ['.row'],
            operator: '<=',
            count: 2,
            visible: false,
            attributes: { 'data-state': 'done' },
            properties: { value: 'x', dataset: { id: '1' } },
            timeout: 1200,
          },
          { type: 'waitForElement', selectors: ['.row'] },
          { type: 'waitForExpression', expression: 'window.ready === true' },
          { type: 'waitForExpression', expression: '1', timeout: 250 },
          {
            type: 'keyUp',
            key: 'Enter',
            target: 'main',
            frame: [],
            assertedEvents: [{ type: 'navigation', url: 'https://shop.test/done', title: 'Done "ok"' }],
          },
          {
            type: 'click',
            selectors: ['a'],
            offsetX: 1,
            offsetY: 1,
            assertedEvents: [{ type: 'navigation' }],
          },
          { type: 'close' },
        ],
        { timeout: 7000 },
      ),
    );
    const actions = read.plan.apis[0]?.actions ?? [];
    expect(actions.map((a) => a.kind)).toEqual([
      'setViewport',
      'go',
      'click',
      'doubleClick',
      'type',
      'hover',
      'scroll',
      'executeScript',
      'executeScript',
      'waitForElement',
      'waitForElement',
      'waitForExpression',
      'waitForExpression',
      'keyUp',
      'waitForExpression',
      'waitForExpression',
      'click',
      'echo',
    ]);
    expect(actions[2]).toEqual({
      kind: 'click',
      source: { action: 'click aria/Sign in', path: "Chrome Recorder 'Sign in', step 3" },
      locators: [
        { by: 'aria', value: 'Sign in' },
        { by: 'pierce', value: '#inner', within: ['#host'] },
        { by: 'css', value: '#deep', within: ['xpath=//div', 'text=Hello'] },
        { by: 'text', value: 'Sign in' },
        { by: 'xpath', value: '//*[@id="go"]' },
        { by: 'pierce', value: '#go' },
        { by: 'css', value: '#go' },
      ],
      offset: { x: 3.5, y: 4 },
    });
    expect(actions[3]).toMatchObject({ button: 'right', offset: { x: 1, y: 2 } });
    expect(actions[4]).toMatchObject({ kind: 'type', text: '' });
    expect(actions[6]).toMatchObject({
      kind: 'scroll',
      x: 0,
      y: 40,
      locators: [{ by: 'css', value: '#list' }],
    });
    expect(actions[7]).toMatchObject({ script: 'window.scroll(10, 20);', async: false });
    expect(actions[8]).toMatchObject({
      script: 'window.scroll(0, 0);',
      source: { action: 'scroll window 0, 0' },
    });
    expect(actions[9]).toMatchObject({
      operator: '<=',
      count: 2,
      visible: false,
      attributes: { 'data-state': 'done' },
      properties: { value: 'x', dataset: { id: '1' } },
      timeout_ms: 1200,
    });
    // Puppeteer Replay's defaults: at least one, waited for (not its inversion); the recording's time-out.
    expect(actions[10]).toMatchObject({ operator: '>=', count: 1, visible: true, timeout_ms: 7000 });
    expect(actions[10]).not.toHaveProperty('attributes');
    expect(actions[11]).toMatchObject({ expression: 'window.ready === true', timeout_ms: 7000 });
    expect(actions[12]).toMatchObject({ timeout_ms: 250 });
    // The asserted navigation: its URL and title are waited for after the step, named as the step.
    expect(actions.slice(14, 16)).toEqual([
      {
        kind: 'waitForExpression',
        source: {
          action: 'keyUp navigation to https://shop.test/done',
          path: "Chrome Recorder 'Sign in', step 14",
        },
        expression: 'location.href === "https://shop.test/done"',
        timeout_ms: 7000,
      },
      {
        kind: 'waitForExpression',
        source: { action: 'keyUp navigation titled Done "ok"', path: "Chrome Recorder 'Sign in', step 14" },
        expression: 'document.title === "Done \\"ok\\""',
        timeout_ms: 7000,
      },
    ]);
    expect(actions[17]).toMatchObject({
      kind: 'echo',
      source: { action: 'close', path: "Chrome Recorder 'Sign in', step 16" },
    });
    expect(read.counts).toEqual({ tests: 1, actions: 18, skipped: 0 });
    expect(read.warnings).toEqual([
      {
        location: 'step 1',
        message:
          "only the viewport's width and height are set; the recorded device (isMobile, hasTouch, deviceScaleFactor) is not emulated",
      },
      {
        location: 'step 3',
        message:
          'the click\'s "duration" (how long the button was held) is not kept: the click is a plain one',
      },
    ]);
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it('leaves out a nested selector it cannot enter, saying so, and keeps at most 10 selectors', () => {
    const read = readChromeRecording(
      flow([
        {
          type: 'click',
          selectors: [['aria/Menu', 'aria/Item'], ...Array.from({ length: 11 }, (_, i) => `#s${i}`)],
        },
      ]),
    );
    const click = read.plan.apis[0]?.actions[0];
    expect(click?.kind === 'click' && click.locators.map((l) => l.value)).toEqual(
      Array.from({ length: 10 }, (_, i) => `#s${i}`),
    );
    expect(read.warnings.map((w) => w.message)).toEqual([
      'the selector ["aria/Menu","aria/Item"] is left out: its part "aria/Menu" is an aria/ selector, which AnybodyQA cannot enter (only a CSS, xpath/, text/ or pierce/ part before the last)',
      'the step has 11 selectors; the first 10 are tried, the others left out',
    ]);
  });
});

describe('readChromeRecording: refusals', () => {
  it('refuses a step type it does not run, by name and index', () => {
    expect(
      refusal([
        { type: 'navigate', url: 'https://a.test/' },
        { type: 'click', selectors: ['#a'] },
        { type: 'hover', selectors: ['#b'] },
        { type: 'customStep', name: 'x', parameters: {} },
      ]),
    ).toMatch(
      /^flow\.json: step 4: the step type "customStep" is not one AnybodyQA runs \(it runs setViewport, navigate, .*\): remove the step from the recording, or replace it with one of those$/,
    );
    expect(refusal([{ type: 'emulateNetworkConditions', download: 1, upload: 1, latency: 0 }])).toMatch(
      /^flow\.json: step 1: the step type "emulateNetworkConditions" is not one AnybodyQA runs/,
    );
  });

  it("reads a step's frame indices onto its locators, as Puppeteer Replay enters child frames", () => {
    const read = readChromeRecording(
      flow([
        { type: 'navigate', url: `${BASE}/main.html` },
        { type: 'click', frame: [0, 0], selectors: [['aria/Inner iframe button'], ['#inner-iframe']] },
        { type: 'keyDown', frame: [0], key: 'a' },
      ]),
    );
    const [, click] = read.plan.apis[0]!.actions;
    expect(click).toMatchObject({
      kind: 'click',
      locators: [
        { by: 'aria', value: 'Inner iframe button', framePath: [0, 0] },
        { by: 'css', value: '#inner-iframe', framePath: [0, 0] },
      ],
    });
  });

  it("reads a popup's target as a move to the window at that address, and back to main", () => {
    const read = readChromeRecording(
      flow([
        { type: 'navigate', url: `${BASE}/main.html` },
        { type: 'click', target: 'main', selectors: ['#popup'] },
        { type: 'click', target: `${BASE}/popup.html`, selectors: ['body > button'], timeout: 3000 },
        { type: 'close', target: `${BASE}/popup.html` },
        { type: 'click', target: 'main', selectors: ['#test'] },
      ]),
    );
    expect(read.plan.apis[0]!.actions.map(({ source, ...a }) => [source.action, a])).toEqual([
      [`navigate ${BASE}/main.html`, { kind: 'go', url: `${BASE}/main.html` }],
      ['click #popup', { kind: 'click', locators: [{ by: 'css', value: '#popup' }] }],
      [
        `target ${BASE}/popup.html`,
        { kind: 'selectWindow', handle: `url=${BASE}/popup.html`, timeout_ms: 3000 },
      ],
      ['click body > button', { kind: 'click', locators: [{ by: 'css', value: 'body > button' }] }],
      ['close', { kind: 'closeWindow' }],
      ['target main', { kind: 'selectWindow', handle: 'main' }],
      ['click #test', { kind: 'click', locators: [{ by: 'css', value: '#test' }] }],
    ]);
    expect(read.plan.apis[0]!.actions[2]!.source.path).toBe("Chrome Recorder 'Sign in', step 3");
  });

  it('refuses a target that is not an address, and a frame step without selectors', () => {
    expect(refusal([{ type: 'click', target: 'popup', selectors: ['#a'] }])).toBe(
      'flow.json: step 1: "target" is "main" or the address of the page the step acts in (http or https), not "popup": export the recording again from Chrome\'s Recorder',
    );
    expect(
      refusal([
        { type: 'navigate', url: 'https://a.test/' },
        { type: 'waitForExpression', frame: [0], expression: 'true' },
      ]),
    ).toBe(
      "flow.json: step 2: the step acts inside a frame (frame [0]) but has no selectors, and AnybodyQA enters a frame only to find a step's selectors: record the step on an element of the frame, or remove it",
    );
    expect(refusal([{ type: 'click', frame: ['a'], selectors: ['#a'] }])).toBe(
      'flow.json: step 1: "frame" is a list of frame indices, not ["a"]',
    );
  });

  it('refuses steps after the page was closed', () => {
    expect(refusal([{ type: 'close' }, { type: 'navigate', url: 'https://a.test/' }])).toBe(
      'flow.json: step 2: the recording goes on after step 1 closed the page it began in: remove the close step, or the steps after it',
    );
  });

  it('names what is wrong in a step', () => {
    expect(refusal([{ type: 'navigate' }])).toBe(
      'flow.json: step 1: a navigate step needs "url" as a non-empty string',
    );
    expect(refusal([{ type: 'click', selectors: [] }])).toBe(
      'flow.json: step 1: a click step needs "selectors": a list of selectors, each a string or a list of strings',
    );
    expect(refusal([{ type: 'click', selectors: [['#a', 7]] }])).toContain('needs "selectors"');
    expect(refusal([{ type: 'click', selectors: ['#a'], button: 'left' }])).toBe(
      'flow.json: step 1: "button" is one of primary, auxiliary, secondary, back, forward, not "left"',
    );
    expect(refusal([{ type: 'click', selectors: ['#a'], offsetX: '1' }])).toBe(
      'flow.json: step 1: "offsetX" is a number',
    );
    expect(refusal([{ type: 'change', selectors: ['#a'] }])).toBe(
      'flow.json: step 1: a change step needs "value" as a string',
    );
    expect(refusal([{ type: 'keyDown', key: '' }])).toBe(
      'flow.json: step 1: a keyDown step needs "key" as a non-empty string',
    );
    expect(refusal([{ type: 'setViewport', width: 0, height: 600 }])).toBe(
      'flow.json: step 1: a setViewport step needs "width" as a whole number above 0',
    );
    expect(refusal([{ type: 'waitForElement', selectors: ['#a'], operator: '>' }])).toBe(
      'flow.json: step 1: "operator" is one of >=, == and <=, not ">"',
    );
    expect(refusal([{ type: 'waitForElement', selectors: ['#a'], count: -1 }])).toBe(
      'flow.json: step 1: "count" is a whole number, not -1',
    );
    expect(refusal([{ type: 'waitForElement', selectors: ['#a'], attributes: { a: 1 } }])).toBe(
      'flow.json: step 1: "attributes" is an object of attribute names and string values',
    );
    expect(refusal([{ type: 'waitForExpression', expression: 'true', timeout: -5 }])).toBe(
      'flow.json: step 1: "timeout" is a whole number of milliseconds up to 600000, not -5',
    );
    expect(refusal([{ type: 'click', selectors: ['#a'], assertedEvents: [{ type: 'load' }] }])).toBe(
      'flow.json: step 1: an asserted event of type "load" is not one AnybodyQA checks (it checks "navigation"): remove it from the step\'s "assertedEvents"',
    );
    expect(refusal([{ type: 'click', selectors: [['aria/A', 'b']] }])).toBe(
      "flow.json: step 1: none of the step's selectors can be used",
    );
    expect(refusal([{ type: 'setViewport', width: 20_000, height: 600 }])).toMatch(
      /^flow\.json: step 1: the step cannot be run: width /,
    );
  });

  it('refuses what is not a recording', () => {
    const read = (text: string) => () => readChromeRecording({ name: 'r.json', text });
    expect(read('[]')).toThrow(
      'r.json: a Chrome DevTools Recorder export is a JSON object with "title" and "steps"',
    );
    expect(read('{"steps": []}')).toThrow('r.json: the recording has no "title"');
    expect(read('{"title": "t"}')).toThrow('r.json: the recording has no "steps" list');
    expect(read('{"title": "t", "steps": ["click"]}')).toThrow(
      'r.json: step 1: a step is an object with a string "type"',
    );
    expect(read('{"title": "t", "steps": [')).toThrow(ImportError);
    expect(read('')).toThrow('r.json: the file is empty');
    // Puppeteer Replay's own failing fixture: a flow without a title.
    expect(() => readChromeRecording(recordingFixture('chrome-recorder/resources/replay-fail.json'))).toThrow(
      'replay-fail.json: the recording has no "title"',
    );
    const steps = Array.from({ length: 1001 }, () => ({ type: 'keyDown', key: 'a' }));
    expect(read(JSON.stringify({ title: 't', steps }))).toThrow(
      'r.json: the recording has 1001 steps; a UI test step holds at most 1000 actions',
    );
  });
});
