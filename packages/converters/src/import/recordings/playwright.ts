import { parse, type Node } from 'acorn';
import { UI_LIMITS, type UiAction, type UiActionSource, type UiLocator } from '@aqa/plan';
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
 * Anything else refuses the file, naming the line and what it is.
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

/** A locator written on `page`: page.getByRole('button', { name: 'Go' }), page.locator('#go'), .first(). */
function locatorOf(node: AnyNode | undefined, page: string, at: Node): UiLocator {
  if (node?.type !== 'CallExpression') refuse(at, 'what it acts on is not a locator of the page');
  const callee = asNode(node.callee);
  const method = asNode(callee?.property)?.name as string | undefined;
  const object = asNode(callee?.object);
  if (callee?.type !== 'MemberExpression' || method === undefined)
    refuse(at, 'it is not a locator of the page');
  // `.first()` is what every locator here does: the first element that matches.
  if (method === 'first' && (node.arguments as unknown[]).length === 0) return locatorOf(object, page, at);
  if (object?.type !== 'Identifier' || object.name !== page) {
    refuse(at, `a chained locator (…).${method}(…) is not in the subset codegen writes that AnybodyQA reads`);
  }
  const [first, second] = (node.arguments as unknown[]).map(asNode);
  if (method === 'locator') {
    if (second !== undefined) refuse(at, 'page.locator with options is not read');
    return { by: 'css', value: text(first, at, 'the selector') };
  }
  const by = GET_BY[method];
  if (by === undefined) refuse(at, `page.${method}(…) is not a locator AnybodyQA reads`);
  if (literal(first) === undefined)
    refuse(at, `the ${method} argument is not a string (a regular expression is not read)`);
  const value = String(literal(first));
  const given = options(second, at);
  const locator: UiLocator = { by, value };
  for (const [key, option] of Object.entries(given)) {
    if (key === 'exact' && typeof option === 'boolean') locator.exact = option;
    else if (key === 'name' && by === 'role' && typeof option === 'string') locator.name = option;
    else refuse(at, `the ${method} option ${key} is not read`);
  }
  return locator;
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
      const key = text(args[0], at, 'the key');
      const named = KEYS[key] ?? ([...key].length === 1 ? key : undefined);
      if (named === undefined)
        refuse(at, `the key "${key}" is not one AnybodyQA presses (a combination is not read)`);
      return { kind: 'keys', source, locators, keys: named };
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

/** expect(…).[not.]matcher(…) as an assertion. */
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
  const arg = asNode((call.arguments as unknown[])[0]);
  const negated = not ? { not: true } : {};
  if (target?.type === 'Identifier' && target.name === page) {
    if (matcher === 'toHaveTitle')
      return { kind: 'assertTitle', source, expected: text(arg, at, 'the title'), ...negated };
    if (matcher === 'toHaveURL')
      return { kind: 'assertUrl', source, expected: text(arg, at, 'the address'), ...negated };
    refuse(at, `expect(${page}).${matcher} is not an assertion AnybodyQA reads`);
  }
  const locators = [locatorOf(target, page, at)];
  switch (matcher) {
    case 'toHaveText':
    case 'toContainText':
      return {
        kind: 'assertText',
        source,
        locators,
        expected: text(arg, at, 'the text'),
        ...negated,
        ...(matcher === 'toContainText' ? { contains: true } : {}),
      };
    case 'toHaveValue':
      return { kind: 'assertValue', source, locators, expected: text(arg, at, 'the value'), ...negated };
    case 'toBeVisible':
      return { kind: not ? 'assertNotVisible' : 'assertVisible', source, locators };
    case 'toBeHidden':
      return { kind: not ? 'assertVisible' : 'assertNotVisible', source, locators };
    case 'toBeChecked':
      return { kind: not ? 'assertNotChecked' : 'assertChecked', source, locators };
    case 'toBeEditable':
      return { kind: not ? 'assertNotEditable' : 'assertEditable', source, locators };
  }
  return refuse(at, `.${matcher}(…) is not an assertion AnybodyQA reads`);
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

/** The steps of one test body. */
function actionsOf(body: AnyNode[], page: string, test: string, source: string): UiAction[] {
  const actions: UiAction[] = [];
  for (const statement of body) {
    if (statement.type === 'EmptyStatement' || isSetUp(statement, source)) continue;
    const expression = asNode(statement.expression);
    const awaited = expression?.type === 'AwaitExpression' ? asNode(expression.argument) : undefined;
    if (statement.type !== 'ExpressionStatement' || awaited?.type !== 'CallExpression')
      refuse(
        statement,
        'it is not an awaited page action or assertion (a popup, a variable or other code is not read)',
      );
    const written = source
      .slice(statement.start, statement.end)
      .replace(/^await\s+/, '')
      .replace(/;$/, '');
    const at: UiActionSource = {
      action: written.slice(0, 2_000),
      path: `Playwright test '${test}', line ${lineOf(statement)}`,
      line: lineOf(statement),
    };
    const callee = asNode(awaited.callee);
    const method = asNode(callee?.property)?.name as string | undefined;
    const object = asNode(callee?.object);
    if (callee?.type !== 'MemberExpression' || method === undefined)
      refuse(statement, 'it is not a page action');
    if (object?.type === 'Identifier' && object.name === page && method === 'goto') {
      actions.push({
        kind: 'go',
        source: at,
        url: text(asNode((awaited.arguments as unknown[])[0]), statement, 'the address'),
      });
    } else if (object?.type === 'CallExpression' && asNode(object.callee)?.name === 'expect') {
      actions.push(expectation(awaited, page, at, statement));
    } else if (object?.type === 'MemberExpression' && asNode(object.property)?.name === 'not') {
      actions.push(expectation(awaited, page, at, statement));
    } else {
      actions.push(locatorAction(awaited, method, locatorOf(object, page, statement), at, statement));
    }
  }
  return actions;
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
