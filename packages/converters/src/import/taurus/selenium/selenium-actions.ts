import { durationMs, jmeterToTemplate, scalarText } from '../taurus-text';
import { type Plain, type PlainMap, isPlainMap } from '../yaml-tree';
import type {
  SeleniumLocator,
  SeleniumLocatorKind,
  SeleniumStep,
  SeleniumStepSource,
  SeleniumWaitState,
} from './selenium-model';

/*
 * One Taurus Selenium action → a typed step (docs/reference/02-running.md §3 "Selenium-style scripts").
 * Taurus writes an action in one line — `clickByID(submit)`, or a one-key map `typeByName(q): text` —
 * or as a dict with `type`, `locators` (fallbacks, tried in order), `param` and `value`. Action names
 * and locator kinds are read without case, as Taurus matches them.
 */

/** Taurus's waitFor time-out when the action gives none. */
export const DEFAULT_WAIT_MS = 10_000;

const LOCATOR_KINDS: Record<string, SeleniumLocatorKind> = {
  id: 'id',
  name: 'name',
  css: 'css',
  xpath: 'xpath',
  linktext: 'linktext',
};

const WAIT_STATES: Record<string, SeleniumWaitState> = {
  present: 'present',
  visible: 'visible',
  clickable: 'clickable',
  notpresent: 'notpresent',
  notvisible: 'notvisible',
  notclickable: 'notclickable',
};

/** What each action needs: a locator, and what its argument and value mean. */
type Shape = 'locator' | 'argument' | 'optional';
const ACTIONS: Record<string, { canonical: string; shape: Shape }> = {
  go: { canonical: 'go', shape: 'argument' },
  click: { canonical: 'click', shape: 'locator' },
  doubleclick: { canonical: 'doubleClick', shape: 'locator' },
  submit: { canonical: 'submit', shape: 'locator' },
  type: { canonical: 'type', shape: 'locator' },
  keys: { canonical: 'keys', shape: 'locator' },
  select: { canonical: 'select', shape: 'locator' },
  waitfor: { canonical: 'waitFor', shape: 'locator' },
  /** The older `waitByXPath(...)`: waits for presence, or with `: visible` for visibility. */
  wait: { canonical: 'wait', shape: 'locator' },
  asserttext: { canonical: 'assertText', shape: 'locator' },
  assertvalue: { canonical: 'assertValue', shape: 'locator' },
  asserttitle: { canonical: 'assertTitle', shape: 'argument' },
  storetext: { canonical: 'storeText', shape: 'locator' },
  storevalue: { canonical: 'storeValue', shape: 'locator' },
  storetitle: { canonical: 'storeTitle', shape: 'optional' },
  storestring: { canonical: 'storeString', shape: 'argument' },
  pausefor: { canonical: 'pauseFor', shape: 'argument' },
  screenshot: { canonical: 'screenshot', shape: 'optional' },
};

/** The names the reader knows, for the refusal message. */
export const KNOWN_ACTIONS = [...new Set(Object.values(ACTIONS).map((a) => a.canonical))];

const ONE_LINE = /^([A-Za-z]+)\(([\s\S]*)\)$/;
const WITH_LOCATOR = /^([A-Za-z]+?)By(ID|Name|CSS|XPath|LinkText)$/i;

/** A refusal: the action as written and why. */
export interface ActionProblem {
  action: string;
  message: string;
}

export type ActionRead = { step: SeleniumStep } | { problem: ActionProblem };

/** Text with Taurus's ${name} as the model's {{name}}. */
export function template(text: string): string {
  return jmeterToTemplate(text).text;
}

/** Reads one item of an `actions` list. */
export function readAction(item: Plain, source: Omit<SeleniumStepSource, 'action'>): ActionRead {
  if (typeof item === 'string') return readOneLine(item.trim(), undefined, source);
  if (isPlainMap(item)) {
    if (Object.hasOwn(item, 'type')) return readDict(item, source);
    const keys = Object.keys(item);
    // Taurus's if, loop and foreach blocks: named so the refusal says which.
    const block = keys.find((key) => ['if', 'loop', 'foreach'].includes(key.toLowerCase()));
    if (block !== undefined) return { problem: unknownAction(block) };
    if (keys.length === 1 && keys[0] !== undefined) {
      return readOneLine(keys[0].trim(), item[keys[0]] ?? null, source);
    }
  }
  const written = JSON.stringify(item);
  return {
    problem: {
      action: written.slice(0, 80),
      message: 'is not an action: write name(argument), name(argument): value, or a map with type',
    },
  };
}

function readOneLine(
  text: string,
  value: Plain | undefined,
  at: Omit<SeleniumStepSource, 'action'>,
): ActionRead {
  const match = ONE_LINE.exec(text);
  if (!match && /^[A-Za-z]+$/.test(text)) return readBareName(text, value, at);
  if (!match) {
    return {
      problem: { action: text.slice(0, 80), message: 'is not an action: write it as name(argument)' },
    };
  }
  const fullName = match[1] ?? '';
  const argument = match[2] ?? '';
  const byMatch = WITH_LOCATOR.exec(fullName);
  const name = byMatch ? (byMatch[1] ?? '') : fullName;
  const spec = ACTIONS[name.toLowerCase()];
  if (spec === undefined) return { problem: unknownAction(fullName) };
  const locators: SeleniumLocator[] = [];
  // waitForByX(locator, condition): timeout — the condition follows the locator's last comma.
  let locatorText = argument;
  let condition: string | undefined;
  if (spec.canonical === 'waitFor') {
    const comma = argument.lastIndexOf(',');
    condition = comma === -1 ? undefined : argument.slice(comma + 1).trim();
    locatorText = comma === -1 ? argument : argument.slice(0, comma).trim();
  }
  if (byMatch) {
    const by = LOCATOR_KINDS[(byMatch[2] ?? '').toLowerCase()];
    if (by) locators.push({ by, value: template(locatorText) });
  }
  const valueText = value === undefined ? undefined : scalarText(value);
  if (value !== undefined && valueText === undefined) {
    return { problem: { action: fullName, message: 'takes a text value, not a list or map' } };
  }
  const source = { ...at, action: fullName };
  if (spec.shape === 'locator') {
    if (locators.length === 0) {
      return {
        problem: {
          action: fullName,
          message: `needs a locator: write ${spec.canonical}ByID, ByName, ByCSS, ByXPath or ByLinkText`,
        },
      };
    }
    return spec.canonical === 'waitFor'
      ? build(spec.canonical, source, locators, condition, valueText)
      : build(spec.canonical, source, locators, valueText, undefined);
  }
  if (byMatch) {
    return { problem: { action: fullName, message: `takes no locator: write ${spec.canonical}(...)` } };
  }
  return build(spec.canonical, source, [], argument, valueText);
}

function readDict(item: PlainMap, at: Omit<SeleniumStepSource, 'action'>): ActionRead {
  const type = scalarText(item.type)?.trim() ?? '';
  const spec = ACTIONS[type.toLowerCase()];
  if (spec === undefined) return { problem: unknownAction(type || JSON.stringify(item.type)) };
  const source = { ...at, action: type };
  const locators: SeleniumLocator[] = [];
  const rawLocators = item.locators;
  const list = Array.isArray(rawLocators) ? rawLocators : rawLocators === undefined ? [] : [rawLocators];
  for (const entry of list) {
    if (!isPlainMap(entry)) {
      return { problem: { action: type, message: 'has a locator that is not a map such as - id: name' } };
    }
    for (const [kind, raw] of Object.entries(entry)) {
      const by = LOCATOR_KINDS[kind.toLowerCase()];
      const text = scalarText(raw);
      if (by === undefined || text === undefined) {
        return {
          problem: {
            action: type,
            message: `has the locator ${kind}, which is not one of id, name, css, xpath, linktext`,
          },
        };
      }
      locators.push({ by, value: template(text) });
    }
  }
  for (const key of Object.keys(item)) {
    if (!['type', 'locators', 'param', 'value'].includes(key)) {
      return {
        problem: { action: type, message: `has the key ${key}; an action has type, locators, param, value` },
      };
    }
  }
  const param = item.param === undefined ? undefined : scalarText(item.param);
  const value = item.value === undefined ? undefined : scalarText(item.value);
  if (spec.shape === 'locator' && locators.length === 0) {
    return { problem: { action: type, message: 'needs locators: a list such as - id: name, - css: .class' } };
  }
  if (spec.shape !== 'locator' && locators.length > 0) {
    return { problem: { action: type, message: 'takes no locators' } };
  }
  // The dict's param is what the one-line form writes after the colon (text, condition, variable);
  // waitFor's value is its time-out; storeString's param is the variable and value the text.
  if (spec.shape === 'locator') return build(spec.canonical, source, locators, param, value);
  if (spec.canonical === 'storeString') return build(spec.canonical, source, [], value ?? '', param);
  return build(spec.canonical, source, [], param ?? '', value);
}

/**
 * A name without brackets. `assertTitle: Home`, `go: https://…`, `pauseFor: 2s` and `screenshot: a.png`
 * read as the bracket form with the value as the argument, and `storeTitle: var` as `storeTitle(): var`.
 * A locator action needs its locator in the name; an unknown name such as rawCode is refused as one.
 */
function readBareName(
  name: string,
  value: Plain | undefined,
  at: Omit<SeleniumStepSource, 'action'>,
): ActionRead {
  const spec = ACTIONS[name.toLowerCase()];
  if (spec === undefined) return { problem: unknownAction(name) };
  if (spec.shape === 'locator') {
    return {
      problem: {
        action: name,
        message: `needs a locator: write ${spec.canonical}ByID(…), ByName, ByCSS, ByXPath or ByLinkText`,
      },
    };
  }
  const valueText = value === undefined || value === null ? '' : scalarText(value);
  if (valueText === undefined) {
    return { problem: { action: name, message: 'takes a text value, not a list or map' } };
  }
  const source = { ...at, action: name };
  if (spec.canonical === 'storeTitle') return build(spec.canonical, source, [], '', valueText);
  if (spec.canonical === 'storeString') {
    return {
      problem: {
        action: name,
        message: 'needs the text and the variable: write storeString(text): variable',
      },
    };
  }
  return build(spec.canonical, source, [], valueText, undefined);
}

function unknownAction(action: string): ActionProblem {
  return {
    action,
    message: `is not an action AnybodyQA runs (it runs ${KNOWN_ACTIONS.join(', ')})`,
  };
}

/**
 * The step from the action's parts. For locator actions `value` is what follows the colon (or the
 * dict's param) and `extra` the dict's value; for the others `value` is the argument in brackets (or
 * the dict's param) and `extra` what follows the colon (or the dict's value).
 */
function build(
  kind: string,
  source: SeleniumStepSource,
  locators: SeleniumLocator[],
  value: string | undefined,
  extra: string | undefined,
): ActionRead {
  const fail = (message: string): ActionRead => ({ problem: { action: source.action, message } });
  const text = value === undefined ? '' : template(value);
  switch (kind) {
    case 'click':
    case 'doubleClick':
    case 'submit':
      return { step: { kind, locators, source } };
    case 'type':
      return { step: { kind, locators, text, source } };
    case 'keys':
      return { step: { kind, locators, keys: text, source } };
    case 'select':
      return { step: { kind, locators, option: text, source } };
    case 'wait':
    case 'waitFor': {
      // waitFor names its condition; the older wait waits for presence unless it says visible.
      const written = (value ?? '')
        .trim()
        .toLowerCase()
        .replace(/[_\s-]/g, '');
      if (kind === 'waitFor' && written === '') {
        return fail(
          `needs a condition: write waitForByID(id, visible): 10s, with one of ${Object.keys(WAIT_STATES).join(', ')}`,
        );
      }
      const state =
        kind === 'wait'
          ? written === ''
            ? 'present'
            : written === 'visible'
              ? 'visible'
              : undefined
          : WAIT_STATES[written];
      if (state === undefined) {
        return fail(
          `waits for "${value ?? ''}", which is not one of ${kind === 'wait' ? 'present (nothing written), visible' : Object.keys(WAIT_STATES).join(', ')}`,
        );
      }
      const timeoutMs = extra === undefined || extra.trim() === '' ? DEFAULT_WAIT_MS : durationMs(extra);
      if (timeoutMs === undefined || timeoutMs <= 0) {
        return fail(`has the time-out "${extra ?? ''}", which is not a duration such as 10s or 1m30s`);
      }
      return { step: { kind: 'waitFor', locators, state, timeout_ms: timeoutMs, source } };
    }
    case 'assertText':
    case 'assertValue':
      return { step: { kind, locators, expected: text, source } };
    case 'storeText':
    case 'storeValue': {
      const variable = variableName(value);
      return variable === undefined
        ? fail('needs the variable to store into after the colon (or as param)')
        : { step: { kind, locators, variable, source } };
    }
    case 'go':
      return text.trim() === ''
        ? fail('needs the URL to open')
        : { step: { kind, url: text.trim(), source } };
    case 'assertTitle':
      return { step: { kind, expected: text, source } };
    case 'storeTitle': {
      // storeTitle(): var; the dict writes the variable as param.
      const variable = variableName(extra) ?? variableName(value);
      return variable === undefined
        ? fail('needs the variable to store the title into')
        : { step: { kind, variable, source } };
    }
    case 'storeString': {
      const variable = variableName(extra);
      return variable === undefined
        ? fail('needs the variable to store into after the colon (or as param)')
        : { step: { kind, value: text, variable, source } };
    }
    case 'pauseFor': {
      const ms = durationMs((value ?? '').trim());
      return ms === undefined
        ? fail(`pauses for "${value ?? ''}", which is not a duration such as 5s`)
        : { step: { kind, ms, source } };
    }
    case 'screenshot': {
      const file = (value ?? '').trim();
      return { step: { kind, file: file === '' ? null : file, source } };
    }
    default:
      return fail('is not an action AnybodyQA runs');
  }
}

/** A variable name as Taurus writes it to store into: `name`, or `${name}`. */
function variableName(text: string | undefined): string | undefined {
  const name = text
    ?.trim()
    .replace(/^\$\{(.*)\}$/, '$1')
    .trim();
  return name !== undefined && /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) ? name : undefined;
}
