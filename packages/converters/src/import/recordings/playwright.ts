import { parse, type Node } from 'acorn';
import { UI_LIMITS, type UiAction, type UiActionSource, type UiLocator, type UiLocatorPart } from '@aqa/plan';
import { ImportError } from '../import-model';
import { type ImportSource, sourceName, sourceText } from '../read-document';
import { type RecordedTest, type RecordingRead, recordedPlan } from './recording-model';

/*
 * A script `npx playwright codegen` writes, as a UI plan (docs/adr/0030-recorded-ui-tests.md §2): read
 * with a JavaScript parser (acorn), never run. Each `test('name', async ({ page }) => …)` is one step (a
 * library-style script, one step named by the file); each awaited statement of the subset codegen writes
 * — page.goto, a locator (getByRole, getByText, getByLabel, getByPlaceholder, getByTestId, getByAltText,
 * getByTitle, locator) with click, dblclick, fill, press, check, uncheck, selectOption, hover, focus, and
 * expect(…) toHaveText, toContainText, toHaveValue, toHaveTitle, toHaveURL, toBeVisible, toBeHidden,
 * toBeChecked, toBeEditable, with .not — is one action whose source is the statement and its line.
 * Popups as codegen writes them — `const page1Promise = page.waitForEvent('popup')`, the action, `const
 * page1 = await page1Promise` (or the older `const [page1] = await Promise.all([…])`) — wait for the new
 * window and keep its handle as `page1`; a statement on another page than the one before is preceded
 * by a move to that window. Anything else refuses the file, naming the line and what it is.
 */

/** A codegen script: it imports Playwright's test runner or library. */
export function looksLikePlaywright(text: string): boolean {
  return /(?:from\s+|require\(\s*)['"](?:@playwright\/test|playwright(?:-core)?)['"]/.test(text);
}

type AnyNode = Node & Record<string, unknown>;

/** Why a statement cannot be read; thrown inside the reader with the statement's line. */
class Refused extends Error {
  constructor(
    readonly line: number,
    why: string,
  ) {
    super(why);
  }
}

const lineOf = (node: Node): number => node.loc?.start.line ?? 1;

function refuse(node: Node, why: string): never {
  throw new Refused(lineOf(node), why);
}

const asNode = (value: unknown): AnyNode | undefined =>
  typeof value === 'object' && value !== null && 'type' in value ? (value as AnyNode) : undefined;

/** A literal argument: a string, a number, a boolean, or a template without expressions. */
function literal(node: AnyNode | undefined): string | number | boolean | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'Literal' && ['string', 'number', 'boolean'].includes(typeof node.value))
    return node.value as string | number | boolean;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
    const quasi = asNode((node.quasis as unknown[])[0]);
    return (quasi?.value as { cooked?: string } | undefined)?.cooked ?? '';
  }
  return undefined;
}

function text(node: AnyNode | undefined, at: Node, what: string): string {
  const value = literal(node);
  if (typeof value !== 'string') refuse(at, `${what} is not written out as a string`);
  return value;
}

/** An object literal's written-out properties: { name: 'Sign in', exact: true }. */
function options(node: AnyNode | undefined, at: Node): Record<string, string | number | boolean | AnyNode> {
  if (node === undefined) return {};
  if (node.type !== 'ObjectExpression') refuse(at, 'its options are not an object written out');
  const out: Record<string, string | number | boolean | AnyNode> = {};
  for (const raw of node.properties as unknown[]) {
    const property = asNode(raw);
    const key = asNode(property?.key);
    const name = (key?.name as string | undefined) ?? (literal(key) as string | undefined);
    const value = asNode(property?.value);
    if (property?.type !== 'Property' || name === undefined || value === undefined)
      refuse(at, 'its options are not an object written out');
    out[name] = literal(value) ?? value;
  }
  return out;
}

const GET_BY: Record<string, UiLocator['by']> = {
  getByRole: 'role',
  getByText: 'text',
  getByLabel: 'label',
  getByPlaceholder: 'placeholder',
  getByTestId: 'testid',
  getByAltText: 'alttext',
  getByTitle: 'title',
};

/** A text argument, or a regular expression literal as its source and flags: 'Sign in', /sign in/i. */
function textOrRegex(node: AnyNode | undefined, at: Node, what: string): { text: string; flags?: string } {
  const regex =
    node?.type === 'Literal' ? (node.regex as { pattern: string; flags: string } | undefined) : undefined;
  if (regex !== undefined) {
    if (!/^[imsu]*$/.test(regex.flags))
      refuse(at, `${what} /${regex.pattern}/${regex.flags} has flags AnybodyQA does not run`);
    return { text: regex.pattern, flags: regex.flags };
  }
  return { text: text(node, at, what) };
}

/** The calls of a locator written on `page`, from the page on: page.locator('#f').contentFrame().getByRole(…). */
function chainOf(node: AnyNode | undefined, page: string, at: Node): AnyNode[] {
  const calls: AnyNode[] = [];
  let current = node;
  for (;;) {
    if (current?.type !== 'CallExpression') refuse(at, 'what it acts on is not a locator of the page');
    const callee = asNode(current.callee);
    if (callee?.type !== 'MemberExpression' || asNode(callee.property)?.name === undefined)
      refuse(at, 'it is not a locator of the page');
    calls.unshift(current);
    const object = asNode(callee.object);
    if (object?.type === 'Identifier' && object.name === page) return calls;
    if (object?.type === 'Identifier')
      refuse(
        at,
        `${String(object.name)} is not a page of the test: use the test's page, or a popup kept with const ${String(object.name)} = await …Promise after waitForEvent('popup')`,
      );
    current = object;
  }
}

/** One getBy…(…) or locator(…) call as a locator part. */
function partOf(method: string, call: AnyNode, at: Node): UiLocatorPart {
  const [first, second] = (call.arguments as unknown[]).map(asNode);
  if (method === 'locator') {
    const part: UiLocatorPart = { by: 'css', value: text(first, at, 'the selector') };
    for (const [key, option] of Object.entries(options(second, at))) {
      if (key === 'hasText') {
        const has =
          typeof option === 'object' ? textOrRegex(option, at, 'hasText') : { text: String(option) };
        part.hasText = has.text;
        if (has.flags !== undefined) part.hasTextFlags = has.flags;
      } else refuse(at, `the locator option ${key} is not read`);
    }
    return part;
  }
  const by = GET_BY[method];
  if (by === undefined) refuse(at, `.${method}(…) is not a locator AnybodyQA reads`);
  const value =
    by === 'role' ? { text: text(first, at, 'the role') } : textOrRegex(first, at, `the ${method} argument`);
  const part: UiLocatorPart = { by, value: value.text };
  if (value.flags !== undefined) part.valueFlags = value.flags;
  const given = second?.type === 'ObjectExpression' ? second : undefined;
  if (second !== undefined && given === undefined)
    refuse(at, `the ${method} options are not an object written out`);
  for (const raw of (given?.properties as unknown[] | undefined) ?? []) {
    const property = asNode(raw);
    const key = (asNode(property?.key)?.name as string | undefined) ?? String(literal(asNode(property?.key)));
    const option = asNode(property?.value);
    if (key === 'exact' && typeof literal(option) === 'boolean') part.exact = literal(option) as boolean;
    else if (key === 'name' && by === 'role') {
      const name = textOrRegex(option, at, 'the name');
      part.name = name.text;
      if (name.flags !== undefined) part.nameFlags = name.flags;
    } else refuse(at, `the ${method} option ${key} is not read`);
  }
  return part;
}

/**
 * A locator written on `page` (docs/adr/0030-recorded-ui-tests.md §2): getBy…/locator, chained one in
 * another, .filter({ hasText }), .first(), .last(), .nth(n), and frames entered by frameLocator(…) or
 * .contentFrame().
 */
function locatorOf(node: AnyNode | undefined, page: string, at: Node): UiLocator {
  const chain: UiLocatorPart[] = [];
  let current: UiLocatorPart | null = null;
  for (const call of chainOf(node, page, at)) {
    const method = asNode(asNode(call.callee)?.property)?.name as string;
    const args = (call.arguments as unknown[]).map(asNode);
    if (method === 'locator' || method in GET_BY) {
      if (current !== null) chain.push(current);
      current = partOf(method, call, at);
    } else if (method === 'frameLocator') {
      if (current !== null) chain.push(current);
      if (args.length !== 1) refuse(at, 'frameLocator takes one selector');
      chain.push({ by: 'css', value: text(args[0], at, 'the frame selector'), frame: true });
      current = null;
    } else if (method === 'contentFrame' && current !== null && args.length === 0) {
      chain.push({ ...current, frame: true });
      current = null;
    } else if (current === null) {
      refuse(at, `.${method}(…) is not read on a frame; a locator inside it is`);
    } else if ((method === 'first' || method === 'last') && args.length === 0 && current.nth === undefined) {
      current.nth = method === 'first' ? 0 : -1;
    } else if (method === 'nth' && current.nth === undefined) {
      const n = literal(args[0]);
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        refuse(at, 'nth takes a whole number written out');
      current.nth = n;
    } else if (method === 'filter' && current.nth === undefined && current.hasText === undefined) {
      const given = args[0];
      const keys =
        given?.type === 'ObjectExpression'
          ? (given.properties as unknown[]).map((p) => asNode(asNode(p)?.key)?.name)
          : [];
      if (args.length !== 1 || keys.length !== 1 || keys[0] !== 'hasText')
        refuse(at, 'only .filter({ hasText }) is read (has, hasNot, hasNotText and visible are not)');
      const has = textOrRegex(asNode(asNode((given?.properties as unknown[])[0])?.value), at, 'hasText');
      current.hasText = has.text;
      if (has.flags !== undefined) current.hasTextFlags = has.flags;
    } else if (['first', 'last', 'nth', 'filter'].includes(method)) {
      refuse(at, `.${method}(…) after a position or another filter is not read`);
    } else {
      refuse(
        at,
        `.${method}(…) in a locator is not read (getBy…, locator, filter({ hasText }), first, last, nth, frameLocator and contentFrame are)`,
      );
    }
  }
  if (current === null) refuse(at, 'it acts on a frame, not on an element in it');
  const { frame: _frame, ...locator } = current;
  return chain.length === 0 ? locator : { ...locator, chain };
}

/** Playwright's key names as the model's KEY_ names; a single character is typed as it is. */
const KEYS: Record<string, string> = {
  Enter: 'KEY_ENTER',
  Tab: 'KEY_TAB',
  Escape: 'KEY_ESCAPE',
  Backspace: 'KEY_BACKSPACE',
  Delete: 'KEY_DELETE',
  Insert: 'KEY_INSERT',
  Home: 'KEY_HOME',
  End: 'KEY_END',
  PageUp: 'KEY_PAGE_UP',
  PageDown: 'KEY_PAGE_DOWN',
  ArrowUp: 'KEY_UP',
  ArrowDown: 'KEY_DOWN',
  ArrowLeft: 'KEY_LEFT',
  ArrowRight: 'KEY_RIGHT',
  Space: 'KEY_SPACE',
};
for (let n = 1; n <= 12; n++) KEYS[`F${n}`] = `KEY_F${n}`;

const BUTTONS = { left: 'left', right: 'right', middle: 'middle' } as const;

/** A locator's action: locator.click(), .fill('x'), .press('Enter') … */
function locatorAction(
  call: AnyNode,
  method: string,
  locator: UiLocator,
  source: UiActionSource,
  at: Node,
): UiAction {
  const args = (call.arguments as unknown[]).map(asNode);
  const locators = [locator];
  switch (method) {
    case 'click':
    case 'dblclick': {
      const given = options(args[0], at);
      const action: UiAction = { kind: method === 'click' ? 'click' : 'doubleClick', source, locators };
      for (const [key, value] of Object.entries(given)) {
        if (key === 'button' && typeof value === 'string' && value in BUTTONS)
          action.button = BUTTONS[value as keyof typeof BUTTONS];
        else if (key === 'position' && typeof value === 'object') {
          const xy = options(value, at);
          if (typeof xy.x !== 'number' || typeof xy.y !== 'number')
            refuse(at, 'the click position is not {x, y}');
          action.offset = { x: xy.x, y: xy.y };
        } else refuse(at, `the ${method} option ${key} is not read`);
      }
      return action;
    }
    case 'fill':
      return { kind: 'type', source, locators, text: text(args[0], at, 'the text it fills') };
    case 'type':
    case 'pressSequentially':
      return { kind: 'keys', source, locators, keys: text(args[0], at, 'the text it types') };
    case 'press': {
      // A key, or a combination with modifiers (Control+A, Shift+Tab): the model's KEY_ names joined by +.
      const key = text(args[0], at, 'the key');
      const [, held = '', last = key] =
        /^((?:(?:Shift|Control|Alt|Meta|ControlOrMeta)\+)*)(.+)$/.exec(key) ?? [];
      const named = KEYS[last] ?? ([...last].length === 1 ? last : undefined);
      if (named === undefined) refuse(at, `the key "${key}" is not one AnybodyQA presses`);
      const modifiers = held
        .split('+')
        .filter((m) => m !== '')
        .map((m) => `KEY_${m === 'ControlOrMeta' ? 'CONTROL_OR_META' : m.toUpperCase()}+`);
      return { kind: 'keys', source, locators, keys: `${modifiers.join('')}${named}` };
    }
    case 'check':
    case 'uncheck':
    case 'hover':
    case 'focus':
      if (args.length > 0) refuse(at, `${method} with options is not read`);
      return { kind: method, source, locators };
    case 'selectOption': {
      const value = literal(args[0]);
      if (typeof value === 'string') return { kind: 'select', source, locators, option: value, by: 'value' };
      const given = options(args[0], at);
      const [key, option] = Object.entries(given)[0] ?? [];
      if (
        (key === 'label' || key === 'value' || key === 'index') &&
        option !== undefined &&
        typeof option !== 'object'
      )
        return { kind: 'select', source, locators, option: String(option), by: key };
      return refuse(at, 'selectOption takes one option, as a string or { label }, { value } or { index }');
    }
  }
  return refuse(at, `.${method}(…) is not an action AnybodyQA reads`);
}

/** How long Playwright's expect looks again by default (docs/adr/0030-recorded-ui-tests.md §2). */
const EXPECT_MS = 5_000;

/** A matcher's options: { timeout } and those the matcher names; anything else refused. */
function matcherOptions(
  node: AnyNode | undefined,
  at: Node,
  matcher: string,
  allowed: readonly string[] = [],
): { retry_ms: number; given: Record<string, string | number | boolean | AnyNode> } {
  const given = options(node, at);
  for (const [key, value] of Object.entries(given)) {
    if (key === 'timeout' && typeof value !== 'number') refuse(at, 'the timeout is not a number written out');
    if (key !== 'timeout' && !allowed.includes(key)) refuse(at, `the ${matcher} option ${key} is not read`);
  }
  const timeout = typeof given.timeout === 'number' ? given.timeout : EXPECT_MS;
  return { retry_ms: Math.max(0, Math.min(Math.round(timeout), 600_000)), given };
}

/** An expected text or pattern as the action's fields: expected, and expectedFlags for a pattern. */
function expectedOf(
  node: AnyNode | undefined,
  at: Node,
  what: string,
): { expected: string; expectedFlags?: string } {
  if (node?.type === 'ArrayExpression') refuse(at, `${what} is a list; a list of texts is not read`);
  const found = textOrRegex(node, at, what);
  return found.flags === undefined
    ? { expected: found.text }
    : { expected: found.text, expectedFlags: found.flags };
}

const STATE_KINDS = {
  toBeVisible: ['assertVisible', 'assertNotVisible'],
  toBeHidden: ['assertNotVisible', 'assertVisible'],
  toBeChecked: ['assertChecked', 'assertNotChecked'],
  toBeEditable: ['assertEditable', 'assertNotEditable'],
  toBeEmpty: ['assertEmpty', 'assertNotEmpty'],
} as const;
const STATE_OPTION: Record<string, string> = {
  toBeVisible: 'visible',
  toBeChecked: 'checked',
  toBeEditable: 'editable',
};

/**
 * expect(…).[not.]matcher(…) as an assertion that looks again for up to 5 s (or its `timeout`), as
 * Playwright's web-first assertions do.
 */
function expectation(call: AnyNode, page: string, source: UiActionSource, at: Node): UiAction {
  let callee = asNode(call.callee);
  const matcher = asNode(callee?.property)?.name as string | undefined;
  let subject = asNode(callee?.object);
  let not = false;
  if (subject?.type === 'MemberExpression' && asNode(subject.property)?.name === 'not') {
    not = true;
    subject = asNode(subject.object);
  }
  callee = asNode(subject?.callee);
  if (
    subject?.type !== 'CallExpression' ||
    callee?.type !== 'Identifier' ||
    callee.name !== 'expect' ||
    matcher === undefined
  )
    refuse(at, 'it is not an expect(…) assertion');
  const target = asNode((subject.arguments as unknown[])[0]);
  const args = (call.arguments as unknown[]).map(asNode);
  const negated = not ? { not: true } : {};
  if (target?.type === 'Identifier' && target.name === page) {
    if (matcher === 'toHaveTitle' || matcher === 'toHaveURL') {
      const { retry_ms } = matcherOptions(args[1], at, matcher);
      const what = matcher === 'toHaveTitle' ? 'the title' : 'the address';
      const kind = matcher === 'toHaveTitle' ? 'assertTitle' : 'assertUrl';
      return { kind, source, retry_ms, ...expectedOf(args[0], at, what), ...negated };
    }
    refuse(at, `expect(${page}).${matcher} is not an assertion AnybodyQA reads`);
  }
  const locators = [locatorOf(target, page, at)];
  switch (matcher) {
    case 'toHaveText':
    case 'toContainText':
    case 'toHaveValue': {
      const { retry_ms } = matcherOptions(args[1], at, matcher);
      const value = matcher === 'toHaveValue';
      return {
        kind: value ? 'assertValue' : 'assertText',
        source,
        locators,
        retry_ms,
        ...expectedOf(args[0], at, value ? 'the value' : 'the text'),
        ...negated,
        ...(matcher === 'toContainText' ? { contains: true } : {}),
      };
    }
    case 'toHaveAttribute': {
      const attribute = text(args[0], at, 'the attribute name');
      const valued = args[1] !== undefined && args[1].type !== 'ObjectExpression';
      const { retry_ms } = matcherOptions(valued ? args[2] : args[1], at, matcher);
      return {
        kind: 'assertAttribute',
        source,
        locators,
        retry_ms,
        attribute,
        ...(valued ? expectedOf(args[1], at, 'the attribute value') : {}),
        ...negated,
      };
    }
    case 'toHaveCount': {
      const count = literal(args[0]);
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
        refuse(at, 'toHaveCount takes a whole number written out');
      const { retry_ms } = matcherOptions(args[1], at, matcher);
      return { kind: 'assertCount', source, locators, retry_ms, count, ...negated };
    }
    case 'toBeVisible':
    case 'toBeHidden':
    case 'toBeChecked':
    case 'toBeEditable':
    case 'toBeEmpty': {
      const flag = STATE_OPTION[matcher];
      const { retry_ms, given } = matcherOptions(args[0], at, matcher, flag === undefined ? [] : [flag]);
      const option = flag === undefined ? undefined : given[flag];
      if (option !== undefined && typeof option !== 'boolean')
        refuse(at, `the ${matcher} option ${flag} is not true or false`);
      // toBeChecked({ checked: false }) is .not.toBeChecked(), and so on.
      const yes = (option ?? true) !== not;
      const [positive, negative] = STATE_KINDS[matcher];
      return { kind: yes ? positive : negative, source, locators, retry_ms };
    }
  }
  return refuse(at, `.${matcher}(…) is not an assertion AnybodyQA reads`);
}

/** Playwright's URL glob (waitForURL('**' + '/home')) as a pattern's source: ** any text, * within a path part. */
function globSource(glob: string): string {
  const pieces = glob.split(/(\*\*|\*)/).map((piece) => {
    if (piece === '**') return '.*';
    if (piece === '*') return '[^/]*';
    return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return `^${pieces.join('')}$`;
}

/** page.waitForURL(url | glob | /re/, { timeout }): the address is so within the time-out (30 s by default). */
function waitForUrl(call: AnyNode, source: UiActionSource, at: Node): UiAction {
  const args = (call.arguments as unknown[]).map(asNode);
  const given = options(args[1], at);
  for (const key of Object.keys(given))
    if (key !== 'timeout' && key !== 'waitUntil') refuse(at, `the waitForURL option ${key} is not read`);
  const timeout =
    typeof given.timeout === 'number' ? Math.min(Math.max(0, Math.round(given.timeout)), 600_000) : 30_000;
  const url = textOrRegex(args[0], at, 'the address');
  const expected =
    url.flags !== undefined
      ? { expected: url.text, expectedFlags: url.flags }
      : url.text.includes('*')
        ? { expected: globSource(url.text), expectedFlags: '' }
        : { expected: url.text };
  return { kind: 'assertUrl', source, retry_ms: timeout, ...expected };
}

/** The library-style set-up and tear-down codegen writes around the steps: left out, they are ours. */
function isSetUp(statement: AnyNode, source: string): boolean {
  const code = source.slice(statement.start, statement.end);
  return (
    /^(?:const|let|var)\s+\w+\s*=\s*(?:await\s+)?(?:chromium|firefox|webkit|browser|context)\.(?:launch|newContext|newPage)\b/.test(
      code,
    ) ||
    /^(?:const|let|var)\s*\{[^}]*\}\s*=\s*require\(/.test(code) ||
    /^await\s+(?:context|browser)\.close\(\s*\)/.test(code)
  );
}

/** How long a popup is waited for: Playwright's waitForEvent waits up to the test's 30 s by default. */
const POPUP_MS = 30_000;

/** The identifier a statement acts on: page in page.getByRole(…).click(), expect(page1.locator(…)) … */
function rootOf(node: AnyNode | undefined): string | undefined {
  let current = node;
  for (let hops = 0; current !== undefined && hops < 100; hops++) {
    if (current.type === 'Identifier') return current.name as string;
    if (current.type === 'AwaitExpression') current = asNode(current.argument);
    else if (current.type === 'CallExpression') {
      const callee = asNode(current.callee);
      // expect(X…).matcher(…) acts on X.
      if (callee?.type === 'Identifier' && callee.name === 'expect')
        current = asNode((current.arguments as unknown[])[0]);
      else current = callee;
    } else if (current.type === 'MemberExpression') current = asNode(current.object);
    else return undefined;
  }
  return undefined;
}

/** `X.waitForEvent('popup')` (not awaited): the page X. */
function popupWait(node: AnyNode | undefined, at: Node): string | undefined {
  const callee = asNode(node?.callee);
  const object = asNode(callee?.object);
  if (node?.type !== 'CallExpression' || asNode(callee?.property)?.name !== 'waitForEvent') return undefined;
  const args = (node.arguments as unknown[]).map(asNode);
  if (literal(args[0]) !== 'popup') return undefined;
  if (object?.type !== 'Identifier') refuse(at, "waitForEvent('popup') is not called on a page");
  if (args.length > 1) refuse(at, "the options of waitForEvent('popup') are not read: take them out");
  return object.name as string;
}

/** The steps of one test body: `page` is the test's page, the window the test begins in. */
function actionsOf(body: AnyNode[], page: string, test: string, source: string): UiAction[] {
  const actions: UiAction[] = [];
  /** The pages the test has: its own and the popups it waited for. */
  const pages = new Set([page]);
  /** The popups waited for, by the variable their promise is in: the page each comes from. */
  const promises = new Map<string, string>();
  /** The page the statements act in so far. */
  let current = page;
  const sourceOf = (statement: AnyNode, written: string): UiActionSource => ({
    action: written.slice(0, 2_000),
    path: `Playwright test '${test}', line ${lineOf(statement)}`,
    line: lineOf(statement),
  });
  /** Moves the actions to the window `name` before a statement on it. */
  const actIn = (name: string, statement: AnyNode, always = false): void => {
    if (name === current && !always) return;
    actions.push({
      kind: 'selectWindow',
      source: sourceOf(statement, `${name} (the page line ${lineOf(statement)} acts in)`),
      handle: name === page ? 'main' : `handle={{${name}}}`,
    });
    current = name;
  };
  const waitFor = (name: string, statement: AnyNode, written: string): void => {
    if (pages.has(name))
      refuse(statement, `${name} is already a page of the test: give the popup a new name`);
    actions.push({
      kind: 'waitForWindow',
      source: sourceOf(statement, written),
      variable: name,
      timeout_ms: POPUP_MS,
    });
    pages.add(name);
  };
  for (const statement of body) {
    if (statement.type === 'EmptyStatement') continue;
    const written = source
      .slice(statement.start, statement.end)
      .replace(/^await\s+/, '')
      .replace(/;$/, '');
    const declared =
      statement.type === 'VariableDeclaration' && (statement.declarations as unknown[]).length === 1
        ? asNode((statement.declarations as unknown[])[0])
        : undefined;
    const id = asNode(declared?.id);
    const init = asNode(declared?.init);
    // const page1Promise = page.waitForEvent('popup'): the popup is waited for where it is awaited.
    const waitsOn = popupWait(init, statement);
    if (id?.type === 'Identifier' && waitsOn !== undefined) {
      if (!pages.has(waitsOn)) refuse(statement, `${waitsOn} is not a page of the test`);
      promises.set(id.name as string, waitsOn);
      continue;
    }
    // const page1 = await page1Promise
    const awaitedName = init?.type === 'AwaitExpression' ? asNode(init.argument) : undefined;
    if (
      id?.type === 'Identifier' &&
      awaitedName?.type === 'Identifier' &&
      promises.has(awaitedName.name as string)
    ) {
      promises.delete(awaitedName.name as string);
      waitFor(id.name as string, statement, written);
      continue;
    }
    // const [page1] = await Promise.all([page.waitForEvent('popup'), page.getByText('x').click()])
    const all = awaitedName?.type === 'CallExpression' ? awaitedName : undefined;
    const allCallee = asNode(all?.callee);
    if (
      id?.type === 'ArrayPattern' &&
      allCallee?.type === 'MemberExpression' &&
      asNode(allCallee.object)?.name === 'Promise' &&
      asNode(allCallee.property)?.name === 'all'
    ) {
      const list = asNode((all?.arguments as unknown[])[0]);
      const [first, second] = ((list?.elements as unknown[] | undefined) ?? []).map(asNode);
      const name = asNode((id.elements as unknown[])[0]);
      const from = popupWait(first, statement);
      if (
        list?.type !== 'ArrayExpression' ||
        (list.elements as unknown[]).length !== 2 ||
        from === undefined ||
        name?.type !== 'Identifier' ||
        (id.elements as unknown[]).length !== 1
      )
        refuse(
          statement,
          "only const [popup] = await Promise.all([page.waitForEvent('popup'), <one action>]) is read",
        );
      if (!pages.has(from)) refuse(statement, `${from} is not a page of the test`);
      actIn(from, statement);
      actions.push(statementAction(second, from, sourceOf(statement, written), statement));
      waitFor(name.name as string, statement, written);
      continue;
    }
    if (isSetUp(statement, source)) {
      const opened = /^(?:const|let|var)\s+(\w+)\s*=\s*(?:await\s+)?\w+\.newPage\b/.exec(written)?.[1];
      if (opened !== undefined && opened !== page)
        refuse(
          statement,
          `it opens a second page by hand (${opened} = …newPage()), which is not read: record the test in one tab; a page the test's page opens (a link to a new tab, window.open) is followed as a popup`,
        );
      continue;
    }
    const expression = asNode(statement.expression);
    const awaited = expression?.type === 'AwaitExpression' ? asNode(expression.argument) : undefined;
    if (statement.type !== 'ExpressionStatement' || awaited?.type !== 'CallExpression')
      refuse(
        statement,
        'it is not an awaited page action or assertion (a variable or other code is not read): remove the line, or write it as codegen does, await page.… or await expect(…)',
      );
    const on = rootOf(awaited);
    if (on === undefined || !pages.has(on))
      refuse(
        statement,
        `${on ?? 'what it acts on'} is not a page of the test: use the test's page, or a popup kept with const ${on ?? 'page1'} = await …Promise after waitForEvent('popup')`,
      );
    const method = asNode(asNode(awaited.callee)?.property)?.name as string | undefined;
    const direct = asNode(asNode(awaited.callee)?.object)?.name === on;
    if (direct && method === 'bringToFront' && (awaited.arguments as unknown[]).length === 0) {
      actIn(on, statement, true);
      actions[actions.length - 1]!.source = sourceOf(statement, written);
      continue;
    }
    actIn(on, statement);
    if (direct && method === 'close' && (awaited.arguments as unknown[]).length === 0) {
      actions.push({ kind: 'closeWindow', source: sourceOf(statement, written) });
      continue;
    }
    actions.push(statementAction(awaited, on, sourceOf(statement, written), statement));
  }
  return actions;
}

/** One awaited call on page `page` (an action, an assertion, goto or waitForURL) as an action. */
function statementAction(
  awaited: AnyNode | undefined,
  page: string,
  at: UiActionSource,
  statement: Node,
): UiAction {
  if (awaited?.type !== 'CallExpression') refuse(statement, 'it is not a page action');
  const callee = asNode(awaited.callee);
  const method = asNode(callee?.property)?.name as string | undefined;
  const object = asNode(callee?.object);
  if (callee?.type !== 'MemberExpression' || method === undefined)
    refuse(statement, 'it is not a page action');
  if (object?.type === 'Identifier' && object.name === page && method === 'waitForURL')
    return waitForUrl(awaited, at, statement);
  if (object?.type === 'Identifier' && object.name === page && method === 'goto')
    return {
      kind: 'go',
      source: at,
      url: text(asNode((awaited.arguments as unknown[])[0]), statement, 'the address'),
    };
  if (object?.type === 'CallExpression' && asNode(object.callee)?.name === 'expect')
    return expectation(awaited, page, at, statement);
  if (object?.type === 'MemberExpression' && asNode(object.property)?.name === 'not')
    return expectation(awaited, page, at, statement);
  return locatorAction(awaited, method, locatorOf(object, page, statement), at, statement);
}

/** The `page` a test function takes: async ({ page }) => …, else null. */
function pageParameter(fn: AnyNode): string | null {
  const first = asNode((fn.params as unknown[])[0]);
  if (first?.type !== 'ObjectPattern') return null;
  for (const raw of first.properties as unknown[]) {
    const property = asNode(raw);
    if (asNode(property?.key)?.name === 'page')
      return (asNode(property?.value)?.name as string | undefined) ?? null;
  }
  return null;
}

/** Every test('name', async ({ page }) => {…}) in the program, test.describe blocks walked in order. */
function testsOf(statements: AnyNode[], source: string, tests: RecordedTest[]): void {
  for (const statement of statements) {
    const call = asNode(statement.expression);
    if (statement.type !== 'ExpressionStatement' || call?.type !== 'CallExpression') continue;
    const callee = asNode(call.callee);
    const isTest = callee?.type === 'Identifier' && callee.name === 'test';
    const describe =
      callee?.type === 'MemberExpression' &&
      asNode(callee.object)?.name === 'test' &&
      asNode(callee.property)?.name === 'describe';
    const args = (call.arguments as unknown[]).map(asNode);
    const fn = args.find((a) => a?.type === 'ArrowFunctionExpression' || a?.type === 'FunctionExpression');
    const body = asNode(fn?.body);
    if (fn === undefined || body?.type !== 'BlockStatement') continue;
    if (describe) {
      testsOf(body.body as AnyNode[], source, tests);
    } else if (isTest) {
      const name = text(args[0], statement, "the test's name");
      const page = pageParameter(fn);
      if (page === null) refuse(statement, `test '${name}' does not take { page }`);
      tests.push({
        name: name.slice(0, 200),
        actions: actionsOf(body.body as AnyNode[], page, name, source),
      });
    }
  }
}

/** A library-style script: the statements of its async IIFE, on the `page` it opens. */
function libraryTest(statements: AnyNode[], source: string, name: string): RecordedTest | null {
  for (const statement of statements) {
    const call = asNode(statement.expression);
    const fn = asNode(call?.callee);
    const body = asNode(fn?.body);
    if (call?.type !== 'CallExpression' || body?.type !== 'BlockStatement' || fn?.async !== true) continue;
    const code = source.slice(body.start, body.end);
    const page = /(?:const|let|var)\s+(\w+)\s*=\s*await\s+\w+\.newPage\(/.exec(code)?.[1];
    if (page === undefined) refuse(statement, 'the script opens no page (…newPage())');
    return { name, actions: actionsOf(body.body as AnyNode[], page, name, source) };
  }
  return null;
}

export function readPlaywrightScript(source: ImportSource): RecordingRead {
  const file = sourceName(source);
  const code = sourceText(source);
  let program: AnyNode;
  try {
    program = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
    }) as unknown as AnyNode;
  } catch (error) {
    const line = (error as { loc?: { line?: number } }).loc?.line;
    throw new ImportError(
      file,
      `this is not JavaScript AnybodyQA can read${line === undefined ? '' : ` (line ${line})`}: ${(error as Error).message.replace(/ \(\d+:\d+\)$/, '')}; a TypeScript script with type annotations is read once they are taken out`,
      { line },
    );
  }
  const name = file.replace(/\.(?:spec|test)?\.?[cm]?[jt]s$/i, '') || file;
  const tests: RecordedTest[] = [];
  try {
    testsOf(program.body as AnyNode[], code, tests);
    if (tests.length === 0) {
      const library = libraryTest(program.body as AnyNode[], code, name);
      if (library !== null) tests.push(library);
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    throw new ImportError(file, `line ${error.line}: ${error.message}`, { line: error.line });
  }
  if (tests.length === 0)
    throw new ImportError(file, 'this Playwright script has no test(…) with { page } and no page it opens');
  for (const test of tests) {
    if (test.actions.length > UI_LIMITS.actionsPerStep)
      throw new ImportError(
        file,
        `test '${test.name}' has ${test.actions.length} steps; a test runs at most ${UI_LIMITS.actionsPerStep}`,
      );
  }
  return {
    format: 'playwright',
    plan: recordedPlan(name.slice(0, 200), tests),
    counts: { tests: tests.length, actions: tests.reduce((n, t) => n + t.actions.length, 0), skipped: 0 },
    warnings: [],
  };
}
