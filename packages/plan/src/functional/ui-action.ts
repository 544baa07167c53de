import { z } from 'zod';

/*
 * A UI test's action steps (docs/adr/0030-recorded-ui-tests.md): what a page step does after it opens
 * (or on the page the step before left) — click, type, select, check, wait, assert, store — in one
 * vocabulary for every source: the UI editor, a Taurus Selenium-style script, a Selenium IDE project and a
 * Chrome DevTools Recorder export. Each action keeps where it came from (`source`), so a failure reads
 * "Selenium IDE test 'Sign in', command 7 `assertText id=out` — expected 'Hello Ada', got 'Hello'".
 * Text fields keep {{name}} templates; the runner fills them from the run's variables.
 */

/** The browser recordings a UI plan is imported from (ADR 0030 §2). */
export const RECORDING_FORMATS = ['selenium-ide', 'chrome-recorder', 'playwright'] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];

export const UI_LIMITS = {
  /** Actions in one page step. */
  actionsPerStep: 1_000,
  /** Commands (actions) in one uploaded recording, all its tests together (docs/recorded-ui-tests.md "Bounds"). */
  actionsPerRecording: 1_000,
  /** The size of one uploaded recording, in bytes. */
  recordingBytes: 5 * 1024 * 1024,
  /** Locators an action may try in turn (a recording's fallbacks). */
  locators: 10,
  text: 100_000,
} as const;

/**
 * How an element is found. Taurus's and Selenium IDE's ID, Name, CSS, XPath, link text and partial link
 * text; the Chrome Recorder's `aria/…` (accessible name, optionally `[role="…"]`), `text/…` and
 * `pierce/…` (CSS through shadow roots). `frames` lists the CSS selectors of the frames to enter first,
 * outermost first, for a Recorder selector written inside frames.
 */
export const UI_LOCATOR_KINDS = [
  'id',
  'name',
  'css',
  'xpath',
  'linktext',
  'partiallinktext',
  'aria',
  'text',
  'pierce',
  'role',
  'label',
  'placeholder',
  'testid',
  'alttext',
  'title',
] as const;
export type UiLocatorKind = (typeof UI_LOCATOR_KINDS)[number];

/** Regular-expression flags (Playwright's /…/i): present, the text beside it is the pattern's source. */
const flags = z
  .string()
  .regex(/^[dgimsuvy]*$/)
  .max(8)
  .optional();

/**
 * One part of a Playwright locator chain (docs/adr/0030-recorded-ui-tests.md §2): how it is found, then
 * `hasText` (Playwright's filter), then `nth` (0 the first, -1 the last); `frame` enters the frame the
 * element is (frameLocator, contentFrame) so the next part is looked for in its document.
 */
const locatorPart = {
  by: z.enum(UI_LOCATOR_KINDS),
  value: z.string().min(1).max(10_000),
  /** `value` is a regular expression's source with these flags (getByText(/sign in/i)). */
  valueFlags: flags,
  /** Playwright's getByRole: the accessible name the element of that role has (`value` is the role). */
  name: z.string().max(10_000).optional(),
  /** `name` is a regular expression's source with these flags ({ name: /sign in/i }). */
  nameFlags: flags,
  /** Playwright's `exact`: the whole text (name, label …), case and all, rather than a part of it. */
  exact: z.boolean().optional(),
  /** Playwright's .filter({ hasText }): only elements whose text holds this (or matches it, with flags). */
  hasText: z.string().max(10_000).optional(),
  hasTextFlags: flags,
  /** Playwright's .nth(n), .first() (0), .last() (-1): that one of the elements found. */
  nth: z.number().int().min(-1).max(100_000).optional(),
};
export const UiLocatorPartSchema = z.object({
  ...locatorPart,
  /** This element is a frame; what follows is looked for in its document. */
  frame: z.boolean().optional(),
});
export type UiLocatorPart = z.infer<typeof UiLocatorPartSchema>;

export const UiLocatorSchema = z.object({
  ...locatorPart,
  /** The Recorder's nested selector parts before the last: each a shadow root or frame to enter. */
  within: z.array(z.string().min(1).max(10_000)).max(10).optional(),
  ...locatorPart,
  /** Playwright's chained locators, outermost first: each the scope (or frame) the next is looked for in. */
  chain: z.array(UiLocatorPartSchema).max(10).optional(),
  /** The Recorder's `frame`: child-frame indices from the page's main frame, entered before anything else. */
  framePath: z.array(z.number().int().min(0).max(1_000)).max(10).optional(),
});
export type UiLocator = z.infer<typeof UiLocatorSchema>;

/** waitFor's conditions; `not` forms wait for the element to stop being so. */
export const UI_WAIT_STATES = [
  'present',
  'visible',
  'clickable',
  'editable',
  'notpresent',
  'notvisible',
  'notclickable',
  'noteditable',
] as const;
export type UiWaitState = (typeof UI_WAIT_STATES)[number];

/** Where an action came from, as its source writes it: for messages and the editor. */
export const UiActionSourceSchema = z.object({
  /** The action as written: "clickByID", "assertText id=out", "click #submit". */
  action: z.string().max(2_000),
  /** Where: a YAML path, "test 'Sign in', command 7", "step 3". */
  path: z.string().max(2_000).default(''),
  /** The script line (1-based), for a text source. */
  line: z.number().int().min(1).optional(),
});
export type UiActionSource = z.infer<typeof UiActionSourceSchema>;

const locators = z.array(UiLocatorSchema).min(1).max(UI_LIMITS.locators);
const text = z.string().max(UI_LIMITS.text);
const timeout = z.number().int().min(0).max(600_000);

const base = {
  source: UiActionSourceSchema,
  /** A verify: the test goes on after it fails (Selenium IDE's verify*, a soft assertion). */
  soft: z.boolean().optional(),
  /**
   * An assertion that looks again until it holds, for up to this long (Playwright's expect: 5 s or its
   * `timeout`; docs/adr/0030-recorded-ui-tests.md §2); without it, an assertion looks once.
   */
  retry_ms: timeout.optional(),
};
const located = { ...base, locators };

/** Selenium IDE's control flow commands (docs/adr/0030-recorded-ui-tests.md §5). */
export const UI_FLOWS = [
  'if',
  'elseIf',
  'else',
  'end',
  'while',
  'do',
  'repeatIf',
  'times',
  'forEach',
] as const;
export type UiFlow = (typeof UI_FLOWS)[number];

export const UI_MOUSE_BUTTONS = ['left', 'middle', 'right', 'back', 'forward'] as const;

export const UiActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('go'), ...base, url: text }),
  z.object({
    kind: z.enum(['click', 'doubleClick']),
    ...located,
    button: z.enum(UI_MOUSE_BUTTONS).optional(),
    /** Where in the element, from its top-left corner (the Recorder's offsetX/offsetY). */
    offset: z.object({ x: z.number(), y: z.number() }).optional(),
  }),
  z.object({ kind: z.enum(['submit', 'hover', 'check', 'uncheck', 'focus']), ...located }),
  /** Clears the field and fills it (Taurus's type, Selenium IDE's type, the Recorder's change). */
  z.object({ kind: z.literal('type'), ...located, text }),
  /** Presses keys in the element; KEY_ENTER and the other KEY_ names are named keys. */
  z.object({ kind: z.literal('keys'), ...located, keys: text }),
  /** A key pressed or let go wherever the focus is (the Recorder's keyDown / keyUp). */
  z.object({ kind: z.enum(['keyDown', 'keyUp']), ...base, key: z.string().min(1).max(100) }),
  /**
   * Chooses an option: by its visible text (`label`, Taurus's and the default), `value`, `index` or `id`;
   * `add` / `remove` change one option of a multiple select and leave the others.
   */
  z.object({
    kind: z.literal('select'),
    ...located,
    option: text,
    by: z.enum(['label', 'value', 'index', 'id']).optional(),
    mode: z.enum(['set', 'add', 'remove']).optional(),
  }),
  z.object({ kind: z.literal('waitFor'), ...located, state: z.enum(UI_WAIT_STATES), timeout_ms: timeout }),
  /**
   * The Recorder's waitForElement: waits until the elements the first finding locator finds number
   * `operator` `count` and each has the `attributes` and `properties` given — or, with `visible` false,
   * until that stops being so (Puppeteer Replay's "inversion of this step").
   */
  z.object({
    kind: z.literal('waitForElement'),
    ...located,
    operator: z.enum(['>=', '==', '<=']),
    count: z.number().int().min(0).max(100_000),
    visible: z.boolean(),
    attributes: z.record(z.string().max(200), z.string().max(UI_LIMITS.text)).optional(),
    /** Compared deeply with the element's own properties ({"value": "x"}, {"dataset": {"id": "1"}}). */
    properties: z.record(z.string().max(200), z.unknown()).optional(),
    timeout_ms: timeout,
  }),
  /** Sets the element's scroll position (the Recorder's scroll with selectors): scrollLeft x, scrollTop y. */
  z.object({ kind: z.literal('scroll'), ...located, x: z.number(), y: z.number() }),
  /** Waits until the expression, run in the page, is truthy (the Recorder's waitForExpression). */
  z.object({ kind: z.literal('waitForExpression'), ...base, expression: text, timeout_ms: timeout }),
  /** The element's text (or value, selected option) equals `expected`; `not` says it does not. */
  z.object({
    kind: z.enum(['assertText', 'assertValue']),
    ...located,
    expected: text,
    not: z.boolean().optional(),
    /** The text holds `expected` rather than equals it (Playwright's toContainText). */
    contains: z.boolean().optional(),
    /** `expected` is a regular expression's source with these flags (toHaveText(/…/i)). */
    expectedFlags: flags,
  }),
  z.object({
    kind: z.enum(['assertSelectedLabel', 'assertSelectedValue']),
    ...located,
    expected: text,
    not: z.boolean().optional(),
  }),
  z.object({
    kind: z.enum([
      'assertChecked',
      'assertNotChecked',
      'assertPresent',
      'assertNotPresent',
      'assertVisible',
      'assertNotVisible',
      'assertEditable',
      'assertNotEditable',
    ]),
    ...located,
  }),
  z.object({
    kind: z.literal('assertTitle'),
    ...base,
    expected: text,
    not: z.boolean().optional(),
    expectedFlags: flags,
  }),
  /** The page's address is `expected` (Playwright's toHaveURL; with flags, a regular expression). */
  z.object({
    kind: z.literal('assertUrl'),
    ...base,
    expected: text,
    not: z.boolean().optional(),
    expectedFlags: flags,
  }),
  /** The element has no text (or, a field, no value): Playwright's toBeEmpty. */
  z.object({ kind: z.enum(['assertEmpty', 'assertNotEmpty']), ...located }),
  /** The element has the attribute (with `expected`, of that value): Playwright's toHaveAttribute. */
  z.object({
    kind: z.literal('assertAttribute'),
    ...located,
    attribute: z.string().min(1).max(200),
    expected: text.optional(),
    expectedFlags: flags,
    not: z.boolean().optional(),
  }),
  /** The locator finds `count` elements: Playwright's toHaveCount. */
  z.object({
    kind: z.literal('assertCount'),
    ...located,
    count: z.number().int().min(0).max(100_000),
    not: z.boolean().optional(),
  }),
  /** The page's source contains (or, with not, lacks) the text or pattern. */
  z.object({ kind: z.literal('assertPage'), ...base, text, regexp: z.boolean(), not: z.boolean() }),
  z.object({ kind: z.enum(['storeText', 'storeValue']), ...located, variable: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('storeTitle'), ...base, variable: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('storeString'), ...base, value: text, variable: z.string().min(1).max(200) }),
  /**
   * Runs the script in the page as a function body (Selenium IDE's executeScript; `async`: it returns a
   * promise that is awaited); what it returns is kept in `variable` when one is named.
   */
  z.object({
    kind: z.literal('executeScript'),
    ...base,
    script: text,
    async: z.boolean(),
    variable: z.string().max(200).optional(),
  }),
  /** Writes the text with the step's actions (Selenium IDE's echo). */
  z.object({ kind: z.literal('echo'), ...base, text }),
  z.object({ kind: z.literal('pauseFor'), ...base, ms: timeout }),
  /** `file` as written, or null for a name the runner gives. */
  z.object({ kind: z.literal('screenshot'), ...base, file: z.string().max(200).nullable() }),
  z.object({
    kind: z.literal('setViewport'),
    ...base,
    width: z.number().int().min(1).max(10_000),
    height: z.number().int().min(1).max(10_000),
  }),
  /**
   * Selenium IDE's control flow (docs/adr/0030-recorded-ui-tests.md §5): the test stays a flat list and
   * runs by a jump table. `expression` is the condition (JavaScript run in the page, {{name}} passed as a
   * value), `times`' count, or `forEach`'s array variable; `variable` is forEach's iterator; `limit` the
   * loop's most visits (Selenium IDE's 1000 when absent).
   */
  z.object({
    kind: z.literal('control'),
    ...base,
    flow: z.enum(UI_FLOWS),
    expression: text,
    variable: z.string().max(200).optional(),
    limit: z.number().int().min(0).max(1_000_000).optional(),
  }),
  /** A mouse button pressed or let go, or the mouse moved onto or off the element (Selenium IDE's mouse*). */
  z.object({
    kind: z.literal('mouse'),
    ...located,
    event: z.enum(['down', 'up', 'move', 'out']),
    /** Where in the element, from its top-left corner (Selenium IDE's …At "x,y"). */
    offset: z.object({ x: z.number(), y: z.number() }).optional(),
  }),
  /** Drags the element onto the element `to` finds (Selenium IDE's dragAndDropToObject). */
  z.object({ kind: z.literal('dragAndDrop'), ...located, to: locators }),
  /** Sets a contenteditable element's text (Selenium IDE's editContent). */
  z.object({ kind: z.literal('editContent'), ...located, text }),
  z.object({
    kind: z.literal('storeAttribute'),
    ...located,
    attribute: z.string().min(1).max(200),
    variable: z.string().min(1).max(200),
  }),
  /** How many elements the first locator finds (Selenium IDE's storeElementCount, storeXpathCount). */
  z.object({ kind: z.literal('storeCount'), ...located, variable: z.string().min(1).max(200) }),
  /** A variable's value is `expected` (Selenium IDE's assert / verify). */
  z.object({
    kind: z.literal('assertVariable'),
    ...base,
    variable: z.string().min(1).max(200),
    expected: text,
  }),
  /**
   * Alerts, confirmations and prompts (docs/adr/0030-recorded-ui-tests.md §5): `assert` checks the text
   * of the last one shown; `accept` / `dismiss` / `answer` handle the one open now; the `…Next` forms
   * choose how the next one is answered when it appears.
   */
  z.object({
    kind: z.literal('dialog'),
    ...base,
    dialog: z.enum(['alert', 'confirm', 'prompt']),
    act: z.enum(['assert', 'accept', 'dismiss', 'answer', 'acceptNext', 'dismissNext', 'answerNext']),
    text,
  }),
  /**
   * The frame the next actions act in (Selenium IDE's selectFrame): the page's top, the parent of the
   * current one, the current one's child frame `index` (0-based, in the document's order), the frame
   * element the locators find, or a `path` of those steps from the current frame (Selenium IDE's
   * `index=0\1`, `..` a step up to the parent).
   */
  z.object({
    kind: z.literal('selectFrame'),
    ...base,
    frame: z.enum(['top', 'parent', 'index', 'element', 'path']),
    index: z.number().int().min(0).max(1_000).optional(),
    locators: locators.optional(),
    path: z
      .array(z.union([z.number().int().min(0).max(1_000), z.literal('parent')]))
      .min(1)
      .max(20)
      .optional(),
  }),
  /**
   * The window (page) the next actions act in (docs/adr/0030-recorded-ui-tests.md §5): `handle=…` a
   * handle kept by storeWindowHandle or waitForWindow (Selenium IDE, a codegen script's popup),
   * `url=…` the window at that address, waited for up to `timeout_ms` (the Recorder's `target`), or
   * `main` the window the test began in.
   */
  z.object({ kind: z.literal('selectWindow'), ...base, handle: text, timeout_ms: timeout.optional() }),
  z.object({ kind: z.literal('storeWindowHandle'), ...base, variable: z.string().min(1).max(200) }),
  /** Closes the current window (Selenium IDE's close). */
  z.object({ kind: z.literal('closeWindow'), ...base }),
  /** Waits for a window the action before opened, keeping its handle (Selenium IDE's opensWindow). */
  z.object({
    kind: z.literal('waitForWindow'),
    ...base,
    variable: z.string().min(1).max(200),
    timeout_ms: timeout,
  }),
]);
export type UiAction = z.infer<typeof UiActionSchema>;
export type UiActionKind = UiAction['kind'];

export const UiActionsSchema = z.array(UiActionSchema).max(UI_LIMITS.actionsPerStep);
