import { UI_LIMITS, UiActionSchema, type UiAction, type UiLocator } from '@aqa/plan';
import { ImportError, type ImportWarning } from '../import-model';
import { readStructured, type ImportSource } from '../read-document';
import { recordedPlan, type RecordingRead } from './recording-model';

/*
 * A Chrome DevTools Recorder export (its JSON "user flow", the schema of Puppeteer Replay) as a UI plan
 * (docs/adr/0030-recorded-ui-tests.md §2): one step named as the recording's title, each recorded step one
 * action of the UI action model, keeping "Chrome Recorder '<title>', step N" as its source. A step's
 * `target` other than "main" acts in the popup at that address: a selectWindow before it moves the actions
 * there (and back to "main"), as Puppeteer Replay finds the target by its URL. What the model cannot run
 * as the Recorder would — a step type it lacks — refuses the file, naming the step, before anything runs.
 */

/** Puppeteer Replay's step time-out when neither the step nor the recording gives one. */
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_TIMEOUT_MS = 600_000;

const BUTTONS = {
  primary: 'left',
  auxiliary: 'middle',
  secondary: 'right',
  back: 'back',
  forward: 'forward',
} as const;

/** The step types the reader knows; any other refuses the file. */
const STEP_TYPES = [
  'setViewport',
  'navigate',
  'click',
  'doubleClick',
  'change',
  'keyDown',
  'keyUp',
  'hover',
  'scroll',
  'waitForElement',
  'waitForExpression',
  'close',
] as const;
type StepType = (typeof STEP_TYPES)[number];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A Recorder export: an object with a string `title` and `steps` whose items each have a string `type`. */
export function isChromeRecording(doc: unknown): boolean {
  return (
    isObject(doc) &&
    typeof doc.title === 'string' &&
    Array.isArray(doc.steps) &&
    doc.steps.every((step) => isObject(step) && typeof step.type === 'string')
  );
}

/** Reads a Recorder export into a UI plan of one recorded test. Throws ImportError for bad input. */
export function readChromeRecording(source: ImportSource): RecordingRead {
  const { value, file } = readStructured(source);
  if (!isObject(value)) {
    throw new ImportError(
      file,
      'a Chrome DevTools Recorder export is a JSON object with "title" and "steps"',
    );
  }
  if (typeof value.title !== 'string' || value.title.trim() === '') {
    throw new ImportError(file, 'the recording has no "title" (a Recorder export names its recording)');
  }
  if (!Array.isArray(value.steps)) {
    throw new ImportError(file, 'the recording has no "steps" list');
  }
  const title = value.title.trim();
  if (value.steps.length > UI_LIMITS.actionsPerStep) {
    throw new ImportError(
      file,
      `the recording has ${value.steps.length} steps; a UI test step holds at most ${UI_LIMITS.actionsPerStep} actions`,
    );
  }
  const flowTimeout = optionalTimeout(value.timeout, file, 'the recording');
  const warnings: ImportWarning[] = [];
  const actions: UiAction[] = [];
  let closedAt: number | null = null;
  /** The window the steps act in so far: "main", or a popup's address. */
  let target = 'main';
  for (const [i, raw] of value.steps.entries()) {
    const n = i + 1;
    const at = `step ${n}`;
    const fail = (problem: string): never => {
      throw new ImportError(file, `${at}: ${problem}`);
    };
    if (!isObject(raw) || typeof raw.type !== 'string') fail('a step is an object with a string "type"');
    const step = raw as Json & { type: string };
    if (!(STEP_TYPES as readonly string[]).includes(step.type)) {
      fail(
        `the step type "${step.type}" is not one AnybodyQA runs (it runs ${STEP_TYPES.join(', ')}): remove the step from the recording, or replace it with one of those`,
      );
    }
    if (closedAt !== null) {
      fail(
        `the recording goes on after step ${closedAt} closed the page it began in: remove the close step, or the steps after it`,
      );
    }
    const reader = new StepReader(step, step.type as StepType, {
      title,
      n,
      fail,
      warn: (message) => warnings.push({ location: at, message }),
      timeoutMs: optionalTimeout(step.timeout, file, at) ?? flowTimeout ?? DEFAULT_TIMEOUT_MS,
    });
    const stepTarget = reader.target();
    const read = [...(stepTarget === target ? [] : [reader.selectWindow()]), ...reader.actions()];
    target = stepTarget;
    // Closing a popup leaves the recording in the others; closing the main page ends it.
    if (step.type === 'close' && stepTarget === 'main') closedAt = n;
    for (const action of read) {
      const parsed = UiActionSchema.safeParse(action);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        fail(`the step cannot be run: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
      }
      actions.push(action);
    }
  }
  if (actions.length > UI_LIMITS.actionsPerStep) {
    throw new ImportError(
      file,
      `the recording makes ${actions.length} actions; a UI test step holds at most ${UI_LIMITS.actionsPerStep}`,
    );
  }
  return {
    format: 'chrome-recorder',
    plan: recordedPlan(title, [{ name: title, actions }]),
    counts: { tests: 1, actions: actions.length, skipped: 0 },
    warnings,
  };
}

function optionalTimeout(value: unknown, file: string, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS) {
    throw new ImportError(
      file,
      `${where}: "timeout" is a whole number of milliseconds up to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

interface StepContext {
  title: string;
  /** The step's position, 1-based. */
  n: number;
  fail(problem: string): never;
  warn(message: string): void;
  timeoutMs: number;
}

/** One recorded step as actions of the model. */
class StepReader {
  constructor(
    private readonly step: Json,
    private readonly type: StepType,
    private readonly ctx: StepContext,
  ) {}

  actions(): UiAction[] {
    this.checkFrame();
    const main = this.action();
    return main === null ? [] : [main, ...this.navigationChecks()];
  }

  /** The window the step acts in: "main" (the page the recording began in) or a popup's address. */
  target(): string {
    const { target } = this.step;
    if (target === undefined || target === 'main') return 'main';
    if (typeof target !== 'string' || !/^https?:\/\//.test(target)) {
      this.ctx.fail(
        `"target" is "main" or the address of the page the step acts in (http or https), not ${JSON.stringify(target)}: export the recording again from Chrome's Recorder`,
      );
    }
    return target;
  }

  /**
   * The move to the step's window: the popup at its address, waited for up to the step's time-out as
   * Puppeteer Replay waits for a target of that URL; or back to the page the recording began in.
   */
  selectWindow(): UiAction {
    const target = this.target();
    return target === 'main'
      ? { kind: 'selectWindow', source: this.source('', 'target main'), handle: 'main' }
      : {
          kind: 'selectWindow',
          source: this.source('', `target ${target}`),
          handle: `url=${target}`,
          timeout_ms: this.ctx.timeoutMs,
        };
  }

  /** The step's source: "click #submit" at "Chrome Recorder 'Sign in', step 3". */
  private source(what: string, type: string = this.type): UiAction['source'] {
    const action = what === '' ? type : `${type} ${what}`;
    return {
      action: action.length > 2_000 ? `${action.slice(0, 1_999)}…` : action,
      path: `Chrome Recorder '${this.ctx.title}', step ${this.ctx.n}`,
    };
  }

  private checkFrame(): void {
    const { frame } = this.step;
    if (frame === undefined || (Array.isArray(frame) && frame.length === 0)) return;
    if (
      !Array.isArray(frame) ||
      frame.length > 10 ||
      !frame.every((i) => typeof i === 'number' && Number.isInteger(i) && i >= 0 && i <= 1_000)
    ) {
      this.ctx.fail(`"frame" is a list of frame indices, not ${JSON.stringify(frame)}`);
    }
    // A frame path is entered by the step's selectors (locators' framePath); a step without selectors
    // would run in the page, not in the frame.
    if (
      this.step.selectors === undefined &&
      !['keyDown', 'keyUp', 'setViewport', 'navigate'].includes(this.type)
    ) {
      this.ctx.fail(
        `the step acts inside a frame (frame ${JSON.stringify(frame)}) but has no selectors, and AnybodyQA enters a frame only to find a step's selectors: record the step on an element of the frame, or remove it`,
      );
    }
  }

  /** The step's `frame`: child-frame indices from the main frame, as Puppeteer Replay enters them. */
  private framePath(): number[] | undefined {
    const frame = this.step.frame as number[] | undefined;
    return frame === undefined || frame.length === 0 ? undefined : frame;
  }

  private action(): UiAction | null {
    const s = this.step;
    switch (this.type) {
      case 'setViewport': {
        const width = this.integer('width');
        const height = this.integer('height');
        if (s.isMobile === true || s.hasTouch === true || (s.deviceScaleFactor ?? 1) !== 1) {
          this.ctx.warn(
            "only the viewport's width and height are set; the recorded device (isMobile, hasTouch, deviceScaleFactor) is not emulated",
          );
        }
        return { kind: 'setViewport', source: this.source(`${width}×${height}`), width, height };
      }
      case 'navigate': {
        const url = this.string('url');
        return { kind: 'go', source: this.source(url), url };
      }
      case 'click':
      case 'doubleClick': {
        const locators = this.locators();
        const button = this.button();
        const x = this.optionalNumber('offsetX');
        const y = this.optionalNumber('offsetY');
        if (s.duration !== undefined) {
          this.ctx.warn(
            'the click\'s "duration" (how long the button was held) is not kept: the click is a plain one',
          );
        }
        return {
          kind: this.type,
          source: this.source(this.firstSelector()),
          locators,
          ...(button === undefined ? {} : { button }),
          ...(x === undefined || y === undefined ? {} : { offset: { x, y } }),
        };
      }
      case 'change':
        return {
          kind: 'type',
          source: this.source(this.firstSelector()),
          locators: this.locators(),
          text: this.string('value', true),
        };
      case 'keyDown':
      case 'keyUp': {
        const key = this.string('key');
        return { kind: this.type, source: this.source(key), key };
      }
      case 'hover':
        return { kind: 'hover', source: this.source(this.firstSelector()), locators: this.locators() };
      case 'scroll': {
        const x = this.optionalNumber('x') ?? 0;
        const y = this.optionalNumber('y') ?? 0;
        if (s.selectors === undefined) {
          return {
            kind: 'executeScript',
            source: this.source(`window ${x}, ${y}`),
            script: `window.scroll(${x}, ${y});`,
            async: false,
          };
        }
        return { kind: 'scroll', source: this.source(this.firstSelector()), locators: this.locators(), x, y };
      }
      case 'waitForElement': {
        const operator = s.operator ?? '>=';
        if (operator !== '>=' && operator !== '==' && operator !== '<=') {
          this.ctx.fail(`"operator" is one of >=, == and <=, not ${JSON.stringify(operator)}`);
        }
        const count = s.count ?? 1;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
          this.ctx.fail(`"count" is a whole number, not ${JSON.stringify(count)}`);
        }
        const visible = s.visible ?? true;
        if (typeof visible !== 'boolean') this.ctx.fail('"visible" is true or false');
        const attributes = s.attributes;
        if (
          attributes !== undefined &&
          !(isObject(attributes) && Object.values(attributes).every((v) => typeof v === 'string'))
        ) {
          this.ctx.fail('"attributes" is an object of attribute names and string values');
        }
        const properties = s.properties;
        if (properties !== undefined && !isObject(properties)) {
          this.ctx.fail('"properties" is an object of property names and values');
        }
        return {
          kind: 'waitForElement',
          source: this.source(this.firstSelector()),
          locators: this.locators(),
          operator,
          count,
          visible,
          ...(attributes === undefined ? {} : { attributes: attributes as Record<string, string> }),
          ...(properties === undefined ? {} : { properties }),
          timeout_ms: this.ctx.timeoutMs,
        };
      }
      case 'waitForExpression': {
        const expression = this.string('expression');
        return {
          kind: 'waitForExpression',
          source: this.source(expression),
          expression,
          timeout_ms: this.ctx.timeoutMs,
        };
      }
      case 'close':
        // A popup closes, and the steps after it act in another window.
        if (this.target() !== 'main') return { kind: 'closeWindow', source: this.source('') };
        // The test ends with the recording: the runner closes its page after the last step anyway.
        return {
          kind: 'echo',
          source: this.source(''),
          text: 'the recording closes its page here; the test ends',
        };
    }
  }

  /**
   * A navigation the Recorder asserted after the step: its URL (and title, when it recorded one) are
   * waited for, as Puppeteer Replay waits for the navigation, so a step that leads elsewhere fails here.
   */
  private navigationChecks(): UiAction[] {
    const events = this.step.assertedEvents;
    if (events === undefined) return [];
    if (!Array.isArray(events)) this.ctx.fail('"assertedEvents" is a list');
    const checks: UiAction[] = [];
    for (const event of events as unknown[]) {
      if (!isObject(event) || event.type !== 'navigation') {
        this.ctx.fail(
          `an asserted event of type ${JSON.stringify(isObject(event) ? event.type : event)} is not one AnybodyQA checks (it checks "navigation"): remove it from the step's "assertedEvents"`,
        );
      }
      const { url, title } = event;
      if (typeof url === 'string' && url !== '') {
        checks.push({
          kind: 'waitForExpression',
          source: this.source(`navigation to ${url}`),
          expression: `location.href === ${JSON.stringify(url)}`,
          timeout_ms: this.ctx.timeoutMs,
        });
      }
      if (typeof title === 'string' && title !== '') {
        checks.push({
          kind: 'waitForExpression',
          source: this.source(`navigation titled ${title}`),
          expression: `document.title === ${JSON.stringify(title)}`,
          timeout_ms: this.ctx.timeoutMs,
        });
      }
    }
    return checks;
  }

  private string(name: string, emptyOk = false): string {
    const value = this.step[name];
    if (typeof value !== 'string' || (!emptyOk && value === '')) {
      this.ctx.fail(`a ${this.type} step needs "${name}" as ${emptyOk ? 'a string' : 'a non-empty string'}`);
    }
    return value;
  }

  private integer(name: string): number {
    const value = this.step[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      this.ctx.fail(`a ${this.type} step needs "${name}" as a whole number above 0`);
    }
    return value;
  }

  private optionalNumber(name: string): number | undefined {
    const value = this.step[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.ctx.fail(`"${name}" is a number`);
    return value;
  }

  private button(): (typeof BUTTONS)[keyof typeof BUTTONS] | undefined {
    const value = this.step.button;
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(value in BUTTONS)) {
      this.ctx.fail(`"button" is one of ${Object.keys(BUTTONS).join(', ')}, not ${JSON.stringify(value)}`);
    }
    return BUTTONS[value as keyof typeof BUTTONS];
  }

  private rawSelectors(): (string | string[])[] {
    const list = this.step.selectors;
    const ok =
      Array.isArray(list) &&
      list.length > 0 &&
      list.every(
        (s) =>
          (typeof s === 'string' && s !== '') ||
          (Array.isArray(s) && s.length > 0 && s.every((p) => typeof p === 'string' && p !== '')),
      );
    if (!ok) {
      this.ctx.fail(
        `a ${this.type} step needs "selectors": a list of selectors, each a string or a list of strings`,
      );
    }
    return list as (string | string[])[];
  }

  private firstSelector(): string {
    const first = this.rawSelectors()[0] ?? '';
    return Array.isArray(first) ? first.join(' >> ') : first;
  }

  /** The step's selectors as locators, in the Recorder's fallback order. */
  private locators(): UiLocator[] {
    const locators: UiLocator[] = [];
    for (const selector of this.rawSelectors()) {
      const parts = Array.isArray(selector) ? selector : [selector];
      const last = parts[parts.length - 1] ?? '';
      const within: string[] = [];
      let usable = true;
      for (const part of parts.slice(0, -1)) {
        const entered = enteredPart(part);
        if (entered === null) {
          usable = false;
          this.ctx.warn(
            `the selector ${JSON.stringify(selector)} is left out: its part "${part}" is an aria/ selector, which AnybodyQA cannot enter (only a CSS, xpath/, text/ or pierce/ part before the last)`,
          );
          break;
        }
        within.push(entered);
      }
      if (!usable) continue;
      const framePath = this.framePath();
      locators.push({
        ...recorderLocator(last),
        ...(within.length === 0 ? {} : { within }),
        ...(framePath === undefined ? {} : { framePath }),
      });
    }
    if (locators.length === 0) this.ctx.fail("none of the step's selectors can be used");
    if (locators.length > UI_LIMITS.locators) {
      this.ctx.warn(
        `the step has ${locators.length} selectors; the first ${UI_LIMITS.locators} are tried, the others left out`,
      );
      return locators.slice(0, UI_LIMITS.locators);
    }
    return locators;
  }
}

/** A Recorder selector (Puppeteer's query handlers): aria/, text/, xpath/, pierce/, else CSS. */
function recorderLocator(selector: string): UiLocator {
  for (const by of ['aria', 'text', 'xpath', 'pierce'] as const) {
    if (selector.startsWith(`${by}/`)) return { by, value: selector.slice(by.length + 1) };
  }
  return { by: 'css', value: selector };
}

/**
 * A nested selector's part before the last as the runner enters it (a Playwright selector): CSS as it
 * is, pierce/ as CSS (Playwright's CSS goes through open shadow roots), xpath/ and text/ with Playwright's
 * prefixes; null for aria/, which has no such form.
 */
function enteredPart(part: string): string | null {
  const { by, value } = recorderLocator(part);
  switch (by) {
    case 'css':
    case 'pierce':
      return value;
    case 'xpath':
      return `xpath=${value}`;
    case 'text':
      return `text=${value}`;
    default:
      return null;
  }
}
