import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSeleniumIdeProject } from '@aqa/converters';
import { FunctionalPlanSchema, type FunctionalPlan } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, serveDirectory, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * Selenium IDE's control flow, `run`, dialogs, mouse and store commands (docs/adr/0030-recorded-ui-tests.md
 * §5), imported from .side projects and run in the real Chromium against Selenium IDE's own test pages
 * (packages/ui-runner/test-fixtures/selenium-ide/static, served on loopback): each passes, every command
 * run as the jump table says — and designed failures fail at the right command, named as written.
 */

const STATIC = fileURLToPath(new URL('../test-fixtures/selenium-ide/static', import.meta.url));
const BROWSER_TEST_MS = 90_000;

let site: { origin: string; close: () => Promise<void> };
let pool: UiBrowserPool;

beforeAll(async () => {
  site = await serveDirectory(STATIC);
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

type Row = [string, string?, string?, Record<string, unknown>?];

function project(tests: [string, Row[]][]): string {
  return JSON.stringify({
    name: 'Flow',
    url: 'http://localhost:8080',
    tests: tests.map(([name, rows], t) => ({
      id: `t${t}`,
      name,
      commands: rows.map(([command, target = '', value = '', extra = {}], i) => ({
        id: `c${i}`,
        command,
        target,
        value,
        ...extra,
      })),
    })),
  });
}

async function run(tests: [string, Row[]][]) {
  const read = readSeleniumIdeProject({ name: 'flow.side', text: project(tests) }, { baseUrl: site.origin });
  const plan: FunctionalPlan = FunctionalPlanSchema.parse(read.plan);
  return createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result;
}

/** The actions a step ran, as written, with whether each passed. */
function ran(outcome: Awaited<ReturnType<typeof run>>, step = 0): [string, boolean][] {
  return (outcome.validation_results[step]?.ui?.actions ?? []).map((a) => [a.action, a.passed]);
}

describe('control flow in Chromium', () => {
  it(
    'if / elseIf / else, while, times, forEach and do … repeatIf, conditions run in the page with values passed in',
    async () => {
      const outcome = await run([
        [
          'Flow',
          [
            ['open', '/store/nodes.html'],
            ['storeElementCount', 'css=.testclass', 'count'],
            ['assert', 'count', '6'],
            ['if', '${count} > 10'],
            ['store', 'big', 'size'],
            ['elseIf', '${count} > 5'],
            ['store', 'medium', 'size'],
            ['else'],
            ['store', 'small', 'size'],
            ['end'],
            ['assert', 'size', 'medium'],
            ['store', '0', 'i'],
            ['while', '${i} < 3'],
            ['executeScript', 'return Number(${i}) + 1', 'i'],
            ['end'],
            ['assert', 'i', '3'],
            ['times', '2'],
            ['executeScript', "return document.getElementById('test').value + 'x'", 'v'],
            ['type', 'id=test', '${v}'],
            ['end'],
            ['assertValue', 'id=test', 'xx'],
            ['executeScript', "return ['a', 'b', 'c']", 'list'],
            ['store', '', 'joined'],
            ['forEach', 'list', 'item'],
            ['store', '${joined}${item}', 'joined'],
            ['end'],
            ['assert', 'joined', 'abc'],
            ['do'],
            ['executeScript', 'return Number(${i}) - 1', 'i'],
            ['repeatIf', '${i} > 0'],
            ['assert', 'i', '0'],
            // A variable holding code is a value in a condition, never code: the title stays.
            ['store', 'document.title = "hacked"', 'code'],
            ['if', '${code} === \'document.title = "hacked"\''],
            ['store', 'passed as a value', 'how'],
            ['end'],
            ['assert', 'how', 'passed as a value'],
            ['assertTitle', ''],
          ],
        ],
      ]);
      expect(outcome.validation_results[0]?.error ?? null).toBeNull();
      const actions = ran(outcome);
      expect(actions.every(([, passed]) => passed)).toBe(true);
      // The jump table's trace: the if's false branch and the else were skipped; loops went round.
      const count = (written: string) => actions.filter(([a]) => a === written).length;
      expect(count('store big size')).toBe(0);
      expect(count('store small size')).toBe(0);
      expect(count('store medium size')).toBe(1);
      expect(count('executeScript return Number(${i}) + 1 i')).toBe(3);
      expect(count('while ${i} < 3')).toBe(4);
      expect(count('type id=test ${v}')).toBe(2);
      expect(count('store ${joined}${item} joined')).toBe(3);
      expect(count('executeScript return Number(${i}) - 1 i')).toBe(3);
      expect(outcome.validation_results[0]?.success).toBe(true);
    },
    BROWSER_TEST_MS,
  );

  it(
    'a loop past its limit fails at the loop command with Selenium IDE words',
    async () => {
      const outcome = await run([
        [
          'Forever',
          [
            ['open', '/text.html'],
            ['store', '0', 'n'],
            ['while', 'true', '5'],
            ['executeScript', 'return Number(${n}) + 1', 'n'],
            ['end'],
            ['echo', 'never'],
          ],
        ],
      ]);
      const step = outcome.validation_results[0]!;
      expect(step.success).toBe(false);
      expect(step.error).toMatch(
        /^Selenium IDE test 'Forever', command 3 `while true 5` — Max retry limit exceeded \(5 times\)/,
      );
      expect(ran(outcome).filter(([a]) => a === 'executeScript return Number(${n}) + 1 n')).toHaveLength(5);
      expect(ran(outcome).some(([a]) => a === 'echo never')).toBe(false);
    },
    BROWSER_TEST_MS,
  );

  it(
    'nested loops stop at the step bound of 20,000 actions run, naming the command where it stopped',
    async () => {
      const outcome = await run([
        ['Nested', [['times', '300'], ['times', '100'], ['store', 'x', 'y'], ['end'], ['end']]],
      ]);
      const step = outcome.validation_results[0]!;
      expect(step.success).toBe(false);
      expect(step.error).toMatch(
        /^Selenium IDE test 'Nested', command \d `[a-z]+[^`]*` — the step has run 20000 actions/,
      );
      expect(step.ui?.actions).toHaveLength(20_000);
    },
    BROWSER_TEST_MS,
  );

  it(
    'run plays the named test inside another, sharing its variables',
    async () => {
      const outcome = await run([
        ['Fill', [['type', 'id=test', '${who}']]],
        [
          'Main',
          [
            ['open', '/store/attributes.html'],
            ['store', 'Ada', 'who'],
            ['run', 'Fill'],
            ['assertValue', 'id=test', 'Ada'],
            ['storeAttribute', 'id=test-id-1@class', 'cls'],
            ['assert', 'cls', 'test-class'],
          ],
        ],
      ]);
      // The first test alone has no page and no variable: it types {{who}} unfilled into nothing.
      expect(outcome.validation_results[1]?.error ?? null).toBeNull();
      expect(ran(outcome, 1).map(([a]) => a)).toEqual([
        'open /store/attributes.html',
        'store Ada who',
        'type id=test ${who}',
        'assertValue id=test Ada',
        'storeAttribute id=test-id-1@class cls',
        'assert cls test-class',
      ]);
    },
    BROWSER_TEST_MS,
  );
});

describe('dialogs in Chromium', () => {
  it(
    "answers chosen before the dialog, and the dialog checked and answered after, as Selenium IDE's two ways",
    async () => {
      const outcome = await run([
        [
          'Dialogs',
          [
            ['open', '/popup/alert.html'],
            ['click', 'id=b'],
            ['assertAlert', 'test'],
            ['assertTitle', 'changed'],
            ['open', '/popup/confirm.html'],
            ['chooseCancelOnNextConfirmation'],
            ['click', 'id=b'],
            ['assertConfirmation', 'test'],
            ['assertTitle', 'cancel'],
            ['click', 'id=b'],
            ['assertConfirmation', 'test'],
            ['webdriverChooseOkOnVisibleConfirmation'],
            ['assertTitle', 'ok'],
            ['click', 'id=b'],
            ['dismissConfirmation'],
            ['assertTitle', 'cancel'],
            ['open', '/popup/prompt.html'],
            ['answerOnNextPrompt', 'Ada'],
            ['click', 'id=b'],
            ['assertPrompt', 'test'],
            ['assertTitle', 'Ada'],
            ['chooseCancelOnNextPrompt'],
            ['click', 'id=b'],
            ['assertTitle', 'cancel'],
            ['click', 'id=b'],
            ['answerPrompt', 'Bob'],
            ['assertTitle', 'Bob'],
          ],
        ],
      ]);
      const step = outcome.validation_results[0]!;
      expect(step.error ?? null).toBeNull();
      expect(ran(outcome).filter(([, passed]) => !passed)).toEqual([]);
      expect(ran(outcome)).toHaveLength(27);
    },
    BROWSER_TEST_MS,
  );

  it(
    'a dialog with other words fails its assert, named as written',
    async () => {
      const outcome = await run([
        [
          'Wrong words',
          [
            ['open', '/popup/alert.html'],
            ['click', 'id=b'],
            ['assertAlert', 'hello'],
            ['assertTitle', 'changed'],
          ],
        ],
      ]);
      const step = outcome.validation_results[0]!;
      expect(step.success).toBe(false);
      expect(step.error).toBe(
        'Selenium IDE test \'Wrong words\', command 3 `assertAlert hello` — expected the alert "hello", it said "test"; the step\'s last action was skipped',
      );
    },
    BROWSER_TEST_MS,
  );
});

describe('mouse, drag and drop, editContent in Chromium', () => {
  it(
    "each changes the page as Selenium IDE's test pages expect",
    async () => {
      const outcome = await run([
        [
          'Mouse',
          [
            ['open', '/mouse/index.html'],
            ['mouseOver', 'id=a'],
            ['assertText', 'id=a', 'enter'],
            ['mouseDown', 'id=a'],
            ['assertText', 'id=a', 'down'],
            ['mouseUp', 'id=a'],
            ['assertText', 'id=a', 'up'],
            ['mouseOut', 'id=a'],
            ['assertText', 'id=a', 'out'],
            ['open', '/mouse/updown.html'],
            ['mouseDownAt', 'id=a', '10,20'],
            ['assertText', 'id=a', 'down 10,20'],
            ['mouseUpAt', 'id=a', '30,40'],
            ['assertText', 'id=a', 'up 30,40'],
            ['open', '/mouse/move.html'],
            ['mouseMoveAt', 'id=a', '50,60'],
            ['assertText', 'id=a', 'move 50,60'],
            ['open', '/dnd.html'],
            ['dragAndDropToObject', 'id=p1', 'id=target'],
            ['assertText', 'id=target', 'dropped'],
            ['open', '/contenteditable.html'],
            ['editContent', 'id=c', 'hello there'],
            ['assertText', 'id=c', 'hello there'],
            ['open', '/value.html'],
            ['assertNotValue', 'css=input', 'something else'],
          ],
        ],
      ]);
      expect(outcome.validation_results[0]?.error ?? null).toBeNull();
      expect(ran(outcome).filter(([, passed]) => !passed)).toEqual([]);
    },
    BROWSER_TEST_MS,
  );
});

describe('frames and windows in Chromium', () => {
  it(
    'selectFrame by index, parent, top, locator and index path; a window opened by a link, selected by handle and closed',
    async () => {
      const outcome = await run([
        [
          'Frames',
          [
            ['open', '/nested_frame.html'],
            ['selectFrame', 'index=1'],
            ['selectFrame', 'index=0'],
            ['type', 'css=input[type=text]', 'hello'],
            ['assertValue', 'css=input[type=text]', 'hello'],
            ['selectFrame', 'relative=parent'],
            ['assertElementPresent', 'css=iframe'],
            ['assertElementNotPresent', 'id=t'],
            ['selectFrame', 'relative=top'],
            ['assertElementNotPresent', 'id=t'],
            ['selectFrame', 'css=iframe'],
            ['assertChecked', 'id=t'],
            ['assertNotChecked', 'id=f'],
            // Selenium IDE's frame path: index=1\0 is index=1 then index=0; .. goes up a frame.
            ['selectFrame', 'relative=top'],
            ['selectFrame', 'index=1\\0'],
            ['assertValue', 'css=input[type=text]', 'hello'],
            ['selectFrame', 'index=..\\..\\2'],
            ['assertChecked', 'id=t'],
            ['selectFrame', 'relative=top'],
            ['verifyElementPresent', 'css=iframe'],
            ['selectFrame', 'index=1\\5'],
          ],
        ],
        [
          'Windows',
          [
            ['open', '/windows.html'],
            ['executeScript', "document.title = 'root'"],
            ['storeWindowHandle', 'root'],
            ['click', 'linkText=open new window', '', { opensWindow: true, windowHandleName: 'win1' }],
            ['selectWindow', 'handle=${win1}'],
            ['assertText', 'css=h1', 'This is a window'],
            ['assertTitle', ''],
            ['close'],
            ['selectWindow', 'handle=${root}'],
            ['assertTitle', 'root'],
          ],
        ],
      ]);
      expect(outcome.validation_results.map((r) => r.error ?? null)).toEqual([
        "Selenium IDE test 'Frames', command 21 `selectFrame index=1\\5` — expected a frame at index 5; there is 1 frame (part 2 of the frame path)",
        null,
      ]);
      expect(ran(outcome, 0).filter(([, passed]) => !passed)).toEqual([['selectFrame index=1\\5', false]]);
      // The command that opened the window is followed by the wait for it.
      expect(ran(outcome, 1).map(([a]) => a)).toEqual([
        'open /windows.html',
        "executeScript document.title = 'root'",
        'storeWindowHandle root',
        'click linkText=open new window',
        'click linkText=open new window',
        'selectWindow handle=${win1}',
        'assertText css=h1 This is a window',
        'assertTitle',
        'close',
        'selectWindow handle=${root}',
        'assertTitle root',
      ]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'an element outside the selected frame is not found: the test fails at that command',
    async () => {
      const outcome = await run([
        [
          'Wrong frame',
          [
            ['open', '/iframe.html'],
            ['selectFrame', 'index=0'],
            ['assertElementPresent', 'css=iframe'],
          ],
        ],
      ]);
      expect(outcome.validation_results[0]?.error).toMatch(
        /^Selenium IDE test 'Wrong frame', command 3 `assertElementPresent css=iframe` — expected an element by css: iframe/,
      );
    },
    BROWSER_TEST_MS,
  );
});
