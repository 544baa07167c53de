import {
  controlFlowProblem,
  UI_FLOWS,
  UI_LIMITS,
  type UiAction,
  type UiActionSource,
  type UiFlow,
  type UiLocator,
  type UiWaitState,
} from '@aqa/plan';
import { ImportError, isRecord } from '../import-model';
import { type ImportSource, readStructured } from '../read-document';
import { type RecordedTest, type RecordingRead, recordedPlan } from './recording-model';

/*
 * A Selenium IDE project (`.side`, JSON) as a UI plan (docs/adr/0030-recorded-ui-tests.md §2): one step
 * per test of the project, in the project's order, each command one action of the UI action model with
 * the command as Selenium IDE writes it and its position. `verify*` are soft assertions; commented-out
 * commands (`//…`) are skipped as Selenium IDE skips them; a command that has no action here refuses
 * the whole file, naming the command, its test and its position, before anything runs.
 */

export interface SeleniumIdeOptions {
  /** Replaces the project's base `url` (the address the pages are served from here). */
  baseUrl?: string | undefined;
}

/** A `.side` project: an object whose `tests` each hold a `commands` list. */
export function isSeleniumIdeProject(doc: unknown): boolean {
  return (
    isRecord(doc) &&
    Array.isArray(doc.tests) &&
    doc.tests.length > 0 &&
    doc.tests.every((t) => isRecord(t) && Array.isArray(t.commands))
  );
}

interface Command {
  command: string;
  target: string;
  value: string;
  /** The fallbacks Selenium IDE recorded: [locator, strategy] pairs. */
  targets: string[];
  /** The window this command opens, when it opens one: the variable its handle goes in, and how long to wait. */
  opens?: { variable: string; timeoutMs: number };
}

/** A command that has no action here: what it is and where. */
interface Refusal {
  where: string;
  reason: string;
}

/** How deep `run` may go: a test that runs a test that runs a test … (ADR 0030 §5). */
const RUN_DEPTH = 10;

/** How long a waitFor* command waits when its value gives no time (Selenium IDE's own default). */
const DEFAULT_WAIT_MS = 30_000;

export function readSeleniumIdeProject(
  source: ImportSource,
  options: SeleniumIdeOptions = {},
): RecordingRead {
  const { value: doc, file } = readStructured(source);
  if (!isSeleniumIdeProject(doc) || !isRecord(doc)) {
    throw new ImportError(
      file,
      'this is not a Selenium IDE project: it has no "tests" list of tests with "commands"',
    );
  }
  const project = typeof doc.name === 'string' && doc.name.trim() !== '' ? doc.name.trim() : file;
  const base = (options.baseUrl ?? (typeof doc.url === 'string' ? doc.url : '')).trim();
  const refusals: Refusal[] = [];
  const tests: RecordedTest[] = [];
  const raws = (doc.tests as unknown[]).map((rawTest, t) => {
    const test = rawTest as Record<string, unknown>;
    const name =
      typeof test.name === 'string' && test.name.trim() !== '' ? test.name.trim() : `Test ${t + 1}`;
    return { name, commands: test.commands as unknown[] };
  });
  const byName = new Map(raws.map((r) => [r.name, r]));
  // Each test's blocks are checked on their own, as Selenium IDE checks a test before it plays it.
  for (const { name, commands } of raws) {
    const flows = commands.map((raw) => {
      const c = readCommand(raw);
      return c !== null && (UI_FLOWS as readonly string[]).includes(c.command) ? (c.command as UiFlow) : null;
    });
    const problem = controlFlowProblem(flows);
    if (problem !== null) {
      const c = readCommand(commands[problem.index])!;
      const written = [c.command, c.target, c.value].filter((p) => p !== '').join(' ');
      refusals.push({
        where: `Selenium IDE test '${name}', command ${problem.index + 1} \`${written.slice(0, 120)}\``,
        reason: `${problem.message}: each if, while, times, forEach and do needs its end (or repeatIf) in the same test; add the missing command or remove the stray one in Selenium IDE`,
      });
    }
  }
  let skipped = 0;
  /** A test's actions, each `run` replaced by the actions of the test it names (ADR 0030 §5). */
  const expand = (name: string, commands: unknown[], prefix: string, chain: string[]): UiAction[] => {
    const actions: UiAction[] = [];
    for (const [c, raw] of commands.entries()) {
      const where = `${prefix}command ${c + 1}`;
      const command = readCommand(raw);
      if (command === null) {
        refusals.push({ where, reason: 'it is not a command object with "command", "target" and "value"' });
        continue;
      }
      // Selenium IDE skips a command commented out with `//`, and an empty row.
      if (command.command.startsWith('//') || command.command === '') {
        if (chain.length === 1) skipped++;
        continue;
      }
      const written = [command.command, command.target, command.value].filter((p) => p !== '').join(' ');
      const shown = `${where} \`${written.slice(0, 120)}\``;
      if (command.command === 'run') {
        const inner = byName.get(command.target.trim());
        if (inner === undefined) {
          refusals.push({ where: shown, reason: `the project has no test named '${command.target.trim()}'` });
        } else if (chain.includes(inner.name)) {
          refusals.push({
            where: shown,
            reason: `it runs a test that is already running (${[...chain, inner.name].map((n) => `'${n}'`).join(' → ')}): a test may not run itself`,
          });
        } else if (chain.length >= RUN_DEPTH) {
          refusals.push({ where: shown, reason: `tests run other tests at most ${RUN_DEPTH} deep` });
        } else {
          actions.push(
            ...expand(inner.name, inner.commands, `${where}, run test '${inner.name}', `, [
              ...chain,
              inner.name,
            ]),
          );
        }
        continue;
      }
      const source = { action: written.slice(0, 2_000), path: where };
      const mapped = actionsOf(command, source, base);
      if ('reason' in mapped) refusals.push({ where: shown, reason: mapped.reason });
      else actions.push(...mapped.actions);
      // A command that opens a window: the window is waited for and its handle kept (ADR 0030 §5).
      if (command.opens !== undefined && !('reason' in mapped)) {
        actions.push({
          kind: 'waitForWindow',
          source,
          variable: command.opens.variable,
          timeout_ms: command.opens.timeoutMs,
        });
      }
      if (actions.length > UI_LIMITS.actionsPerStep * 2) break;
    }
    return actions;
  };
  for (const { name, commands } of raws) {
    const actions = expand(name, commands, `Selenium IDE test '${name}', `, [name]);
    if (actions.length > UI_LIMITS.actionsPerStep) {
      refusals.push({
        where: `Selenium IDE test '${name}'`,
        reason: `it has ${actions.length} commands; a test runs at most ${UI_LIMITS.actionsPerStep}`,
      });
    }
    tests.push({ name: name.slice(0, 200), actions });
  }
  if (refusals.length > 0) {
    const shown = refusals.slice(0, 10).map((r) => `${r.where}: ${r.reason}`);
    const more = refusals.length > 10 ? `; and ${refusals.length - 10} more` : '';
    throw new ImportError(file, `${shown.join('; ')}${more}`);
  }
  return {
    format: 'selenium-ide',
    plan: recordedPlan(project.slice(0, 200), tests),
    counts: { tests: tests.length, actions: tests.reduce((n, t) => n + t.actions.length, 0), skipped },
    warnings: [],
  };
}

function readCommand(raw: unknown): Command | null {
  if (!isRecord(raw) || typeof raw.command !== 'string') return null;
  const text = (v: unknown): string =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
  const targets = Array.isArray(raw.targets)
    ? raw.targets.flatMap((pair) => (Array.isArray(pair) && typeof pair[0] === 'string' ? [pair[0]] : []))
    : [];
  const opens =
    raw.opensWindow === true && typeof raw.windowHandleName === 'string' && raw.windowHandleName.trim() !== ''
      ? {
          variable: raw.windowHandleName.trim(),
          timeoutMs:
            typeof raw.windowTimeout === 'number' && raw.windowTimeout >= 0 && raw.windowTimeout <= 600_000
              ? Math.floor(raw.windowTimeout)
              : WINDOW_WAIT_MS,
        }
      : undefined;
  return {
    command: raw.command.trim(),
    target: text(raw.target),
    value: text(raw.value),
    targets,
    ...(opens === undefined ? {} : { opens }),
  };
}

/** How long a command that opens a window waits for it (Selenium IDE's windowTimeout default). */
const WINDOW_WAIT_MS = 2_000;

/** Selenium IDE's `${name}` as the model's `{{name}}`; `${KEY_…}` stays for the keys it names. */
function templates(text: string): string {
  return text.replace(/\$\{(?!KEY_)([^{}]+)\}/g, (_all, name: string) => `{{${name.trim()}}}`);
}

/** A Selenium IDE locator ("id=f", "css=…", "//a", "linkText=Next") as the model's. */
function locatorOf(text: string): UiLocator | { reason: string } {
  const target = text.trim();
  if (target === '') return { reason: 'it has no target (the element to act on)' };
  const match = /^([a-zA-Z]+)=([\s\S]+)$/.exec(target);
  if (match !== null) {
    const value = templates(match[2] ?? '');
    switch ((match[1] ?? '').toLowerCase()) {
      case 'id':
        return { by: 'id', value };
      case 'name':
        return { by: 'name', value };
      case 'css':
        return { by: 'css', value };
      case 'xpath':
        return { by: 'xpath', value };
      case 'link':
      case 'linktext':
        return { by: 'linktext', value };
      case 'partiallinktext':
        return { by: 'partiallinktext', value };
      default:
        return {
          reason: `"${match[1]}=" is not a locator Selenium IDE writes (id, name, css, xpath, linkText, partialLinkText)`,
        };
    }
  }
  // Selenium IDE reads a target starting with / or ( as XPath, and any other bare target as an id.
  if (target.startsWith('/') || target.startsWith('(')) return { by: 'xpath', value: templates(target) };
  return { by: 'id', value: templates(target) };
}

/** The target and then the recorded fallbacks, each once. */
function locatorsOf(command: Command): UiLocator[] | { reason: string } {
  const first = locatorOf(command.target);
  if ('reason' in first) return first;
  const all: UiLocator[] = [first];
  for (const fallback of command.targets) {
    const locator = locatorOf(fallback);
    if ('reason' in locator) continue;
    if (!all.some((l) => l.by === locator.by && l.value === locator.value)) all.push(locator);
    if (all.length === UI_LIMITS.locators) break;
  }
  return all;
}

/** `open`'s target against the project's base URL, as Selenium IDE resolves it. */
function openUrl(target: string, base: string): string {
  const url = templates(target.trim());
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('{{')) return url;
  if (base === '') return url;
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/** A time in ms from a command's value; the default when blank. */
function millis(text: string, fallback: number): number | { reason: string } {
  if (text.trim() === '') return fallback;
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 0 && n <= 600_000
    ? n
    : { reason: `"${text}" is not a time in ms (0–600000)` };
}

/** sendKeys' value: text with ${KEY_…} in it, as one keys action per piece. */
function keyPieces(value: string): string[] {
  return value
    .split(/(\$\{KEY_[A-Z0-9_]+\})/)
    .filter((p) => p !== '')
    .map((p) => (/^\$\{KEY_/.test(p) ? p.slice(2, -1) : templates(p)));
}

const WAITS: Record<string, UiWaitState> = {
  waitForElementPresent: 'present',
  waitForElementNotPresent: 'notpresent',
  waitForElementVisible: 'visible',
  waitForElementNotVisible: 'notvisible',
  waitForElementEditable: 'editable',
  waitForElementNotEditable: 'noteditable',
};

type Mapped = { actions: UiAction[] } | { reason: string };

/** A tested control flow command: its condition (or count) and its loop limit from the value. */
function flow(
  name: 'if' | 'elseIf' | 'while' | 'repeatIf' | 'times',
  expression: string,
  value: string,
  source: UiActionSource,
): Mapped {
  const loop = name !== 'if' && name !== 'elseIf';
  // Selenium IDE reads a loop's value as its limit when it is a number (Math.floor), else keeps 1000.
  const limit = loop && value.trim() !== '' ? Math.floor(Number(value)) : Number.NaN;
  if (loop && value.trim() !== '' && (Number.isNaN(limit) || limit < 0)) {
    return { reason: `"${value}" is not a loop limit (a number of times)` };
  }
  return {
    actions: [
      {
        kind: 'control',
        source,
        flow: name,
        expression,
        ...(Number.isNaN(limit) ? {} : { limit: Math.min(limit, 1_000_000) }),
      },
    ],
  };
}

/** A command as actions of the UI action model (usually one). */
function actionsOf(command: Command, source: UiActionSource, base: string): Mapped {
  const { command: name, target, value } = command;
  const one = (action: UiAction): Mapped => ({ actions: [action] });
  // verify* is assert* that lets the test go on (ADR 0030 §1).
  const soft = name.startsWith('verify');
  const assertion = soft ? `assert${name.slice('verify'.length)}` : name;
  const withLocators = (make: (locators: UiLocator[]) => UiAction): Mapped => {
    const locators = locatorsOf(command);
    return 'reason' in locators ? locators : one(make(locators));
  };
  const variable = (text: string): string | { reason: string } =>
    /^[A-Za-z_][\w.-]*$/.test(text.trim()) ? text.trim() : { reason: `"${text}" is not a variable name` };

  const located = (text: string, fallbacks: string[] = []) =>
    locatorsOf({ ...command, target: text, targets: fallbacks });
  switch (name) {
    case 'if':
    case 'elseIf':
    case 'while':
    case 'repeatIf':
      if (target.trim() === '') return { reason: 'it has no condition (a JavaScript expression)' };
      return flow(name, templates(target), value, source);
    case 'times':
      if (target.trim() === '') return { reason: 'it has no number of times' };
      return flow(name, templates(target.trim()), value, source);
    case 'else':
    case 'end':
    case 'do':
      return one({ kind: 'control', source, flow: name, expression: '' });
    case 'forEach': {
      const list = variable(target);
      if (typeof list !== 'string') return { reason: `"${target}" is not the name of an array variable` };
      const each = variable(value);
      if (typeof each !== 'string') return { reason: `"${value}" is not a name for the iterator variable` };
      return one({ kind: 'control', source, flow: 'forEach', expression: list, variable: each });
    }
    case 'break':
    case 'continue':
      return {
        reason: `"${name}" is not a Selenium IDE command (a plugin such as SelBlocks adds it); end the loop with its condition instead`,
      };
    case 'mouseDown':
    case 'mouseDownAt':
    case 'mouseUp':
    case 'mouseUpAt':
    case 'mouseMove':
    case 'mouseMoveAt':
    case 'mouseOut': {
      const at = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value);
      if (name.endsWith('At') && value.trim() !== '' && at === null) {
        return { reason: `"${value}" is not a position "x,y"` };
      }
      const event = name.startsWith('mouseDown')
        ? 'down'
        : name.startsWith('mouseUp')
          ? 'up'
          : name === 'mouseOut'
            ? 'out'
            : 'move';
      return withLocators((locators) => ({
        kind: 'mouse',
        source,
        locators,
        event,
        ...(at === null || !name.endsWith('At') ? {} : { offset: { x: Number(at[1]), y: Number(at[2]) } }),
      }));
    }
    case 'dragAndDropToObject': {
      const to = located(value);
      if ('reason' in to) return { reason: `the drop target: ${to.reason}` };
      return withLocators((locators) => ({ kind: 'dragAndDrop', source, locators, to }));
    }
    case 'editContent':
      return withLocators((locators) => ({ kind: 'editContent', source, locators, text: templates(value) }));
    case 'storeAttribute': {
      const to = variable(value);
      if (typeof to !== 'string') return to;
      const at = target.lastIndexOf('@');
      if (at <= 0 || at === target.length - 1) {
        return { reason: `"${target}" is not an attribute locator "locator@attribute"` };
      }
      const found = located(target.slice(0, at));
      if ('reason' in found) return found;
      return one({
        kind: 'storeAttribute',
        source,
        locators: found,
        attribute: target.slice(at + 1),
        variable: to,
      });
    }
    case 'storeElementCount':
    case 'storeXpathCount': {
      const to = variable(value);
      if (typeof to !== 'string') return to;
      // storeXpathCount's target is an XPath as written, without "xpath=".
      const found: UiLocator[] | { reason: string } =
        name === 'storeXpathCount' && !target.startsWith('xpath=')
          ? target.trim() === ''
            ? { reason: 'it has no XPath' }
            : [{ by: 'xpath', value: templates(target.trim()) }]
          : located(target);
      if ('reason' in found) return found;
      return one({ kind: 'storeCount', source, locators: found, variable: to });
    }
    case 'storeJson': {
      const to = variable(value);
      if (typeof to !== 'string') return to;
      if (!target.includes('${')) {
        try {
          JSON.parse(target);
        } catch {
          return { reason: `"${target.slice(0, 80)}" is not JSON` };
        }
      }
      return one({ kind: 'storeString', source, value: templates(target), variable: to });
    }
    case 'runScript':
      return one({ kind: 'executeScript', source, script: templates(target), async: false });
    case 'setSpeed':
      return {
        reason:
          'it sets how fast Selenium IDE plays a test by hand; here each command runs as soon as the one before ends (take the command out, or use pause)',
      };
    case 'debugger':
      return {
        reason:
          'it stops Selenium IDE for a person to look; a run here has no one at the keyboard (take it out)',
      };
    case 'selectFrame': {
      const t = target.trim();
      if (t === 'relative=top') return one({ kind: 'selectFrame', source, frame: 'top' });
      if (t === 'relative=parent') return one({ kind: 'selectFrame', source, frame: 'parent' });
      if (t.startsWith('index=')) {
        // Selenium IDE's path of frames: index=0\1 enters frame 0, then its frame 1; `..` goes up one.
        const parts = t.slice('index='.length).split('\\');
        const path = parts.map((p) => (p === '..' ? 'parent' : /^\d{1,4}$/.test(p) ? Number(p) : null));
        if (path.some((p) => p === null || (typeof p === 'number' && p > 1_000)) || path.length > 20) {
          return {
            reason: `"${t}" is not a frame index: write index=N (the Nth frame, from 0), or a path such as index=0\\1 (frame 1 inside frame 0) with .. for the frame above, at most 20 parts`,
          };
        }
        const [only] = path;
        return path.length === 1 && typeof only === 'number'
          ? one({ kind: 'selectFrame', source, frame: 'index', index: only })
          : one({
              kind: 'selectFrame',
              source,
              frame: 'path',
              path: path as (number | 'parent')[],
            });
      }
      return withLocators((locators) => ({ kind: 'selectFrame', source, frame: 'element', locators }));
    }
    case 'selectWindow':
      if (!target.trim().startsWith('handle=')) {
        return {
          reason: `"${target}" is not a window handle: write handle=\${name}, where name is the variable a storeWindowHandle or a command that opens a window keeps it in (as Selenium IDE 3 and later record it)`,
        };
      }
      return one({ kind: 'selectWindow', source, handle: templates(target.trim()) });
    case 'storeWindowHandle': {
      const to = variable(target || value);
      return typeof to === 'string' ? one({ kind: 'storeWindowHandle', source, variable: to }) : to;
    }
    case 'close':
      return one({ kind: 'closeWindow', source });
    case 'chooseOkOnNextConfirmation':
      return one({ kind: 'dialog', source, dialog: 'confirm', act: 'acceptNext', text: '' });
    case 'chooseCancelOnNextConfirmation':
      return one({ kind: 'dialog', source, dialog: 'confirm', act: 'dismissNext', text: '' });
    case 'answerOnNextPrompt':
      return one({ kind: 'dialog', source, dialog: 'prompt', act: 'answerNext', text: templates(target) });
    case 'chooseCancelOnNextPrompt':
      return one({ kind: 'dialog', source, dialog: 'prompt', act: 'dismissNext', text: '' });
    case 'acceptAlert':
      return one({ kind: 'dialog', source, dialog: 'alert', act: 'accept', text: '' });
    case 'acceptConfirmation':
    case 'webdriverChooseOkOnVisibleConfirmation':
      return one({ kind: 'dialog', source, dialog: 'confirm', act: 'accept', text: '' });
    case 'dismissConfirmation':
    case 'webdriverChooseCancelOnVisibleConfirmation':
      return one({ kind: 'dialog', source, dialog: 'confirm', act: 'dismiss', text: '' });
    case 'answerPrompt':
    case 'webdriverAnswerOnVisiblePrompt':
      return one({ kind: 'dialog', source, dialog: 'prompt', act: 'answer', text: templates(target) });
    case 'dismissPrompt':
    case 'webdriverChooseCancelOnVisiblePrompt':
      return one({ kind: 'dialog', source, dialog: 'prompt', act: 'dismiss', text: '' });
    case 'open':
      return one({ kind: 'go', source, url: openUrl(target, base) });
    case 'click':
    case 'clickAt':
    case 'doubleClick':
    case 'doubleClickAt': {
      const at = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value);
      if (name.endsWith('At') && value.trim() !== '' && at === null) {
        return { reason: `"${value}" is not a position "x,y"` };
      }
      const kind = name.startsWith('double') ? 'doubleClick' : 'click';
      return withLocators((locators) => ({
        kind,
        source,
        locators,
        ...(at === null ? {} : { offset: { x: Number(at[1]), y: Number(at[2]) } }),
      }));
    }
    case 'type':
      return withLocators((locators) => ({ kind: 'type', source, locators, text: templates(value) }));
    case 'sendKeys': {
      const locators = locatorsOf(command);
      if ('reason' in locators) return locators;
      return { actions: keyPieces(value).map((keys) => ({ kind: 'keys', source, locators, keys })) };
    }
    case 'select':
    case 'addSelection':
    case 'removeSelection': {
      const option = /^(label|value|index|id)=([\s\S]*)$/.exec(value);
      const by = (option?.[1] ?? 'label') as 'label' | 'value' | 'index' | 'id';
      const mode = name === 'addSelection' ? 'add' : name === 'removeSelection' ? 'remove' : 'set';
      return withLocators((locators) => ({
        kind: 'select',
        source,
        locators,
        option: templates(option?.[2] ?? value),
        by,
        mode,
      }));
    }
    case 'check':
    case 'uncheck':
    case 'submit':
      return withLocators((locators) => ({ kind: name, source, locators }));
    case 'mouseOver':
      return withLocators((locators) => ({ kind: 'hover', source, locators }));
    case 'echo':
      return one({ kind: 'echo', source, text: templates(target) });
    case 'pause': {
      const ms = millis(target || value, 0);
      return typeof ms === 'number' ? one({ kind: 'pauseFor', source, ms }) : ms;
    }
    case 'store': {
      const to = variable(value);
      return typeof to === 'string'
        ? one({ kind: 'storeString', source, value: templates(target), variable: to })
        : to;
    }
    case 'storeText':
    case 'storeValue': {
      const to = variable(value);
      if (typeof to !== 'string') return to;
      return withLocators((locators) => ({ kind: name, source, locators, variable: to }));
    }
    case 'storeTitle': {
      const to = variable(target || value);
      return typeof to === 'string' ? one({ kind: 'storeTitle', source, variable: to }) : to;
    }
    case 'executeScript':
    case 'executeAsyncScript': {
      const to = value.trim() === '' ? undefined : variable(value);
      if (typeof to === 'object') return to;
      return one({
        kind: 'executeScript',
        source,
        script: templates(target),
        async: name === 'executeAsyncScript',
        ...(to === undefined ? {} : { variable: to }),
      });
    }
    case 'setWindowSize': {
      const size = /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(target);
      if (size === null) return { reason: `"${target}" is not a size "WIDTHxHEIGHT"` };
      return one({ kind: 'setViewport', source, width: Number(size[1]), height: Number(size[2]) });
    }
  }
  if (name in WAITS) {
    const ms = millis(value, DEFAULT_WAIT_MS);
    if (typeof ms !== 'number') return ms;
    return withLocators((locators) => ({
      kind: 'waitFor',
      source,
      locators,
      state: WAITS[name]!,
      timeout_ms: ms,
    }));
  }
  if (name.startsWith('assert') || soft) {
    const s = soft ? { soft: true } : {};
    switch (assertion) {
      case 'assertText':
      case 'assertNotText':
      case 'assertValue':
        return withLocators((locators) => ({
          kind: assertion === 'assertValue' ? 'assertValue' : 'assertText',
          source,
          ...s,
          locators,
          expected: templates(value),
          ...(assertion === 'assertNotText' ? { not: true } : {}),
        }));
      case 'assertSelectedLabel':
      case 'assertNotSelectedLabel':
      case 'assertSelectedValue':
      case 'assertNotSelectedValue':
        return withLocators((locators) => ({
          kind: assertion.endsWith('Label') ? 'assertSelectedLabel' : 'assertSelectedValue',
          source,
          ...s,
          locators,
          expected: templates(value),
          ...(assertion.startsWith('assertNot') ? { not: true } : {}),
        }));
      case 'assertTitle':
        return one({ kind: 'assertTitle', source, ...s, expected: templates(target) });
      case 'assert': {
        const name = variable(target);
        if (typeof name !== 'string') return name;
        return one({ kind: 'assertVariable', source, ...s, variable: name, expected: templates(value) });
      }
      case 'assertNotValue':
        return withLocators((locators) => ({
          kind: 'assertValue',
          source,
          ...s,
          locators,
          expected: templates(value),
          not: true,
        }));
      case 'assertAlert':
      case 'assertConfirmation':
      case 'assertPrompt':
        return one({
          kind: 'dialog',
          source,
          ...s,
          dialog:
            assertion === 'assertAlert' ? 'alert' : assertion === 'assertConfirmation' ? 'confirm' : 'prompt',
          act: 'assert',
          text: templates(target),
        });
      case 'assertChecked':
      case 'assertNotChecked':
      case 'assertEditable':
      case 'assertNotEditable':
        return withLocators((locators) => ({ kind: assertion, source, ...s, locators }));
      case 'assertElementPresent':
      case 'assertElementNotPresent':
        return withLocators((locators) => ({
          kind: assertion === 'assertElementPresent' ? 'assertPresent' : 'assertNotPresent',
          source,
          ...s,
          locators,
        }));
    }
  }
  return {
    reason: `"${name}" is not a Selenium IDE command AnybodyQA runs (it may be a plugin's): remove it, or replace it with a command of Selenium IDE's own reference`,
  };
}
