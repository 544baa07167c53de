import { UI_LIMITS, type UiAction, type UiActionSource, type UiLocator, type UiWaitState } from '@aqa/plan';
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
}

/** A command that has no action here: what it is and where. */
interface Refusal {
  where: string;
  reason: string;
}

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
  let skipped = 0;
  for (const [t, rawTest] of (doc.tests as unknown[]).entries()) {
    const test = rawTest as Record<string, unknown>;
    const name =
      typeof test.name === 'string' && test.name.trim() !== '' ? test.name.trim() : `Test ${t + 1}`;
    const actions: UiAction[] = [];
    for (const [c, raw] of (test.commands as unknown[]).entries()) {
      const where = `Selenium IDE test '${name}', command ${c + 1}`;
      const command = readCommand(raw);
      if (command === null) {
        refusals.push({ where, reason: 'it is not a command object with "command", "target" and "value"' });
        continue;
      }
      // Selenium IDE skips a command commented out with `//`, and an empty row.
      if (command.command.startsWith('//') || command.command === '') {
        skipped++;
        continue;
      }
      const written = [command.command, command.target, command.value].filter((p) => p !== '').join(' ');
      const mapped = actionsOf(command, { action: written.slice(0, 2_000), path: where }, base);
      if ('reason' in mapped)
        refusals.push({ where: `${where} \`${written.slice(0, 120)}\``, reason: mapped.reason });
      else actions.push(...mapped.actions);
    }
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
  return { command: raw.command.trim(), target: text(raw.target), value: text(raw.value), targets };
}

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

  switch (name) {
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
    reason: `"${name}" is not a Selenium IDE command AnybodyQA runs yet (a plugin's command, or one such as control flow, frames, windows and alerts that is not built yet: docs/adr/0030-recorded-ui-tests.md §2)`,
  };
}
