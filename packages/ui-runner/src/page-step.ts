import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import {
  controlFlowProblem,
  FlowWalker,
  renderTemplate,
  tokenizeTemplate,
  type CallResult,
  UI_KEPT_CONSOLE_ERRORS,
  UI_KEPT_FAILED_REQUESTS,
  UI_KEPT_PAGES_PER_STEP,
  type UiActionResult,
  type UiPageVisit,
  type UiScreenshotRef,
  type ValidationDetail,
} from '@aqa/plan';
import { errorText, runAction, seconds, type ActionContext, type ActionOutcome } from './actions';
import { runFlow } from './control-flow';
import { Dialogs } from './dialogs';
import type { GuardRoute } from './guard-route';
import type { PageWatch } from './page-watch';
import type { ScreenshotKeeper } from './screenshots';
import { judgeDocumentStatus, judgeUi } from './ui-judge';
import type { UiPage } from './ui-pages';
import { documentOrigin, NO_VITALS, readMeasures, type PageMeasures } from './vitals';

/*
 * One step of a UI run (docs/design.md §9 "UI tests"): a page opened and checked, or a script step's
 * actions run in order, measured and judged into a CallResult with its `ui` details. A failed action
 * fails its step with a screenshot, and the step's remaining actions are skipped.
 */

/** What the steps of one run share. */
export interface StepEnv {
  /** The window the run began in: each step begins in it (docs/adr/0030-recorded-ui-tests.md §5). */
  page: Page;
  watch: PageWatch;
  /** The watch of each window of the run (a popup's from when it opened). */
  watchOf(page: Page): PageWatch;
  /** Every window's watch, the first's first. */
  watches(): PageWatch[];
  route: GuardRoute;
  shots: ScreenshotKeeper;
  /** The run's variables: the script's, and what store actions keep. */
  variables: Record<string, string>;
  /** This iteration's {{sequence_number,N}} values. */
  sequences: Map<number, number>;
  timeoutMs: number;
  signal: AbortSignal;
  /** When the test duration ends (performance.now() time): pauses and waits end by then. */
  endsAt: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The most actions one step runs, loops and all (docs/adr/0030-recorded-ui-tests.md §5). */
export const MAX_ACTIONS_RUN = 20_000;

function render(env: StepEnv, text: string): string {
  return text.includes('{{') ? renderTemplate(tokenizeTemplate(text), env.variables, env.sequences) : text;
}

/** A window of the run with its watch. */
interface Window {
  page: Page;
  watch: PageWatch;
}

/** Opens a URL in the window with a method; answers why it could not, or null. */
async function open(
  env: StepEnv,
  { page, watch }: Window,
  url: string,
  method = 'GET',
  body = '',
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `a UI test opens http and https pages only, not ${parsed.protocol} URLs`;
  }
  env.route.setNavigationMethod(parsed.href, method, body);
  try {
    await page.goto(parsed.href, { waitUntil: 'load', timeout: env.timeoutMs });
    return watch.refusedDocument ?? null;
  } catch (error) {
    const refused = watch.refusedDocument;
    if (refused !== undefined) return refused;
    // The page sent the browser on during its load (location.replace): the page it went to is the step's.
    if (error instanceof Error && error.message.includes('interrupted by another navigation')) {
      return page
        .waitForLoadState('load', { timeout: env.timeoutMs })
        .then(() => watch.refusedDocument ?? null)
        .catch((e: unknown) => errorText(e, env.timeoutMs));
    }
    if (error instanceof Error && error.name === 'TimeoutError') {
      return `the page did not load within ${seconds(env.timeoutMs)} (the step time-out)`;
    }
    return errorText(error, env.timeoutMs);
  } finally {
    env.route.setNavigationMethod(parsed.href, 'GET', '');
  }
}

/** What a step has done so far: kept for a step that never ends (docs/adr/0011-playwright-runs-selenium-ui-tests.md "Hard bounds"). */
export interface StepRecord {
  details: ValidationDetail[];
  actions: UiActionResult[];
  shots: UiScreenshotRef[];
  /** The pages opened, measured as each loaded (docs/recorded-ui-tests.md "Results"). */
  pages: UiPageVisit[];
  error: string | null;
  /** The first soft assertion that failed, in words, when the step went on past it. */
  softFailure?: string;
  /** Time spent measuring (settling for paints), left out of the step's duration. */
  measuringMs: number;
  /** When the step began (performance.now() time). */
  startedAt: number;
  /** The step's URL with its templates filled, once known. */
  url: string | null;
  /** The last page visit's measures, so the step's own are not read twice from the same document. */
  lastMeasured?: PageMeasures;
  /** The window the step's actions ended in, when it is not the one the run began in. */
  window?: Window;
}

export function newStepRecord(): StepRecord {
  return {
    details: [],
    actions: [],
    shots: [],
    pages: [],
    error: null,
    measuringMs: 0,
    startedAt: performance.now(),
    url: null,
  };
}

/** Runs a step, keeping what it does in `record` as it goes. */
export async function runStep(
  step: UiPage,
  iteration: number,
  env: StepEnv,
  record: StepRecord = newStepRecord(),
): Promise<CallResult> {
  for (const watch of env.watches()) watch.begin();
  const started = performance.now();
  record.startedAt = started;
  const url = step.url === null ? null : render(env, step.url);
  record.url = url;
  const originBefore = await documentOrigin(env.page);
  const measures =
    step.actions.length === 0 && url !== null
      ? await urlStep(step, url, env, record)
      : await scriptStep(step, url, env, record, originBefore);
  const durationMs = performance.now() - started - record.measuringMs;
  // The step's page, screenshot and status are those of the window its actions ended in.
  const last: Window = record.window ?? { page: env.page, watch: env.watch };
  const success =
    record.error === null && record.details.every((d) => d.passed) && record.actions.every((a) => a.passed);
  const fresh = measures !== null && measures.origin !== originBefore;
  // A failed action has already kept its failure screenshot, of the page as the step ends.
  let endShot: UiScreenshotRef | null = null;
  if (!env.signal.aborted && (success || !record.shots.some((s) => s.failure))) {
    endShot = await env.shots.take(last.page, success ? 'Step' : 'Failure', !success);
    if (endShot !== null) record.shots.push(endShot);
  }
  // A URL step opened one page: its visit is the step's own measures and screenshot.
  if (step.actions.length === 0 && fresh) {
    record.pages.push({
      url: pageUrl(last.page),
      action: null,
      timings: measures.timings,
      vitals: measures.vitals,
      screenshot: endShot,
    });
  }
  return {
    api_name: step.name,
    method: step.method,
    url: url ?? pageUrl(last.page),
    status_code: last.watch.status ?? env.watch.status,
    response_time: round2(durationMs),
    success,
    validation_details: record.details,
    iteration,
    error: success ? null : (record.error ?? record.softFailure ?? firstFailure(record)),
    // The failed check's words as a code and parameters too (docs/adr/0025-phrases.md).
    ...(success || record.error !== null ? {} : firstFailurePhrase(record)),
    ui: {
      timings: fresh ? measures.timings : null,
      vitals: fresh ? measures.vitals : NO_VITALS,
      console_errors: env
        .watches()
        .flatMap((w) => w.console)
        .slice(0, UI_KEPT_CONSOLE_ERRORS),
      failed_requests: env
        .watches()
        .flatMap((w) => w.failed)
        .slice(0, UI_KEPT_FAILED_REQUESTS),
      screenshots: record.shots,
      actions: record.actions,
      ...(record.pages.length === 0 ? {} : { pages: record.pages }),
    },
  };
}

/**
 * A step that never ended (its browser was killed: docs/adr/0011-playwright-runs-selenium-ui-tests.md
 * "Hard bounds"), failed with `message`: what it had done and kept by then, its screenshots included.
 * Asks nothing of the page, which no longer answers.
 */
export function abandonedStep(
  step: UiPage,
  iteration: number,
  env: Pick<StepEnv, 'page' | 'watch'>,
  record: StepRecord,
  message: string,
): CallResult {
  return {
    api_name: step.name,
    method: step.method,
    url: record.url ?? pageUrl(env.page),
    status_code: env.watch.status,
    response_time: round2(performance.now() - record.startedAt - record.measuringMs),
    success: false,
    validation_details: record.details,
    iteration,
    error: message,
    ui: {
      timings: null,
      vitals: NO_VITALS,
      console_errors: env.watch.console,
      failed_requests: env.watch.failed,
      screenshots: record.shots,
      actions: record.actions,
      ...(record.pages.length === 0 ? {} : { pages: record.pages }),
    },
  };
}

/** A `go` to a relative URL opens it under the page the step is on, as a link would. */
function resolveAgainst(target: string, current: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || !/^https?:/.test(current)) return target;
  try {
    return new URL(target, current).href;
  } catch {
    return target;
  }
}

function pageUrl(page: Page): string {
  try {
    return page.url();
  } catch {
    return '';
  }
}

function firstFailure(record: StepRecord): string | null {
  const detail = record.details.find((d) => !d.passed);
  return detail === undefined ? null : detail.message;
}

function firstFailurePhrase(record: StepRecord): Pick<CallResult, 'error_phrase'> {
  const phrase = record.details.find((d) => !d.passed)?.message_phrase;
  return phrase === undefined ? {} : { error_phrase: phrase };
}

async function measure(page: Page, record: StepRecord): Promise<PageMeasures | null> {
  const t = performance.now();
  const measures = await readMeasures(page);
  record.measuringMs += performance.now() - t;
  return measures;
}

/** A URL step: open the page with its method, then judge its checks (or its document's status). */
async function urlStep(
  step: UiPage,
  url: string,
  env: StepEnv,
  record: StepRecord,
): Promise<PageMeasures | null> {
  const failure = await open(env, env, url, step.method, render(env, step.body));
  const measures = failure === null ? await measure(env.page, record) : null;
  const why = failure === null ? null : `the page did not load: ${failure}`;
  if (failure !== null) record.error = `The page did not load: ${failure}`;
  if (step.validations.length === 0) {
    record.details.push(judgeDocumentStatus(env.watch.status, why));
    return measures;
  }
  for (const validation of step.validations) {
    const judged = { ...validation, expected_value: render(env, validation.expected_value) };
    record.details.push(
      await judgeUi(judged, env.page, why).catch((error: unknown) => ({
        type: validation.type,
        ...(validation.name === '' ? {} : { name: validation.name }),
        expected: judged.expected_value,
        actual: null,
        passed: false,
        message: `the page could not be checked: ${errorText(error, env.timeoutMs)}`,
      })),
    );
  }
  return measures;
}

/** A script step: open its URL (if any), then run its actions until one fails. */
async function scriptStep(
  step: UiPage,
  url: string | null,
  env: StepEnv,
  record: StepRecord,
  originBefore: number | null,
): Promise<PageMeasures | null> {
  const ctx: ActionContext = {
    page: env.page,
    firstPage: env.page,
    watchOf: (window) => env.watchOf(window),
    watch: env.watch,
    render: (text) => render(env, text),
    variables: env.variables,
    // A navigation goes in the window the actions act in (a selected popup's, not the first).
    open: (target) => open(env, ctx, resolveAgainst(target, pageUrl(ctx.page))),
    shoot: async (label, failure) => {
      const shot = await env.shots.take(live(ctx, env).page, label, failure);
      if (shot !== null) record.shots.push(shot);
      return shot;
    },
    signal: env.signal,
    timeoutMs: env.timeoutMs,
    remainingMs: () => Math.max(0, env.endsAt - performance.now()),
  };
  if (url !== null) {
    const failure = await open(env, env, url);
    if (failure !== null) {
      record.error = `The page did not load: ${failure}${skipped(step.actions.length)}`;
      await ctx.shoot('Failure', true);
      return null;
    }
    if (!step.actions.some(isAssertion)) record.details.push(judgeDocumentStatus(env.watch.status, null));
    await visitPage(env, env.page, record, null);
  }
  // Selenium IDE's control flow: the actions are walked by a jump table (ADR 0030 §5).
  const flows = step.actions.map((a) => (a.kind === 'control' ? a.flow : null));
  const problem = controlFlowProblem(flows);
  if (problem !== null) {
    const action = step.actions[problem.index]!;
    record.error = actionFailure(action, `${problem.message}; nothing was run`);
    return null;
  }
  const walker = new FlowWalker(
    flows,
    step.actions.map((a) => (a.kind === 'control' ? a.limit : undefined)),
  );
  // Only a step with dialog commands watches dialogs; others keep Playwright's default (dismissed). Each
  // window the step acts in watches its own, from when the step first acts there (ADR 0030 §5).
  const watching = step.actions.some((a) => a.kind === 'dialog') ? new Map<Page, Dialogs>() : null;
  const dialogsOf = (window: Page): Dialogs | null => {
    if (watching === null) return null;
    let found = watching.get(window);
    if (found === undefined) {
      found = Dialogs.of(window).activate();
      watching.set(window, found);
    }
    return found;
  };
  let runs = 0;
  for (let i = 0; i < step.actions.length;) {
    const action = step.actions[i]!;
    if (env.signal.aborted) break;
    // Loops go round at most their limit each; the step as a whole runs a bounded number of actions.
    if (++runs > MAX_ACTIONS_RUN) {
      record.error = actionFailure(
        action,
        `the step has run ${MAX_ACTIONS_RUN} actions (its loops went round too often): a step runs at most ${MAX_ACTIONS_RUN}`,
      );
      break;
    }
    const t = performance.now();
    let outcome: ActionOutcome;
    let next = i + 1;
    const acting = ctx.page;
    const loads = ctx.watch.counts().loads;
    if (action.kind === 'control') {
      const tested = await runFlow(action, i, walker, ctx);
      outcome = tested.outcome;
      if (outcome.passed) next = walker.next(i, tested.value);
    } else {
      // A dialog left open is answered before any other command (ADR 0030 §5).
      const dialogs = dialogsOf(ctx.page);
      if (action.kind !== 'dialog') await dialogs?.closeOpen();
      outcome =
        dialogs === null ? await runAction(action, ctx) : await untilDialog(runAction(action, ctx), dialogs);
    }
    record.actions.push(actionResult(action, outcome, performance.now() - t));
    // A page the action loaded in its window, or a popup it found opened, is a page the step opened.
    if (!env.signal.aborted) {
      if (outcome.opened !== undefined) await visitPage(env, outcome.opened, record, i);
      else if (ctx.page === acting && ctx.watch.counts().loads > loads)
        await visitPage(env, ctx.page, record, i);
    }
    if (outcome.detail !== undefined) record.details.push(outcome.detail);
    if (!outcome.passed) {
      // A page with a dialog open cannot be photographed: the dialog is answered first.
      if (!ctx.page.isClosed()) await dialogsOf(ctx.page)?.closeOpen();
      const shot = await ctx.shoot('Failure', true);
      // The result names it, so the screen shows it beside this action (docs/recorded-ui-tests.md "Results").
      if (shot !== null) record.actions[record.actions.length - 1]!.screenshot = shot.id;
      // A soft assertion (Selenium IDE's verify*) is kept as failed and the step goes on (ADR 0030 §1).
      if (action.soft === true) {
        record.softFailure ??= actionFailure(action, outcome.message);
        i = next;
        continue;
      }
      record.error = `${actionFailure(action, outcome.message)}${skipped(step.actions.length - i - 1)}`;
      break;
    }
    i = next;
  }
  for (const dialogs of watching?.values() ?? []) await dialogs.deactivate().catch(() => undefined);
  const last = live(ctx, env);
  if (last.page !== env.page) record.window = last;
  // A step that stayed on the page it began on loaded nothing to measure.
  const origin = await documentOrigin(last.page);
  if (url === null && origin === originBefore) return null;
  if (record.lastMeasured !== undefined && record.lastMeasured.origin === origin) return record.lastMeasured;
  return measure(last.page, record);
}

/** The window the actions act in, or — once it is closed — the one the run began in. */
function live(ctx: ActionContext, env: StepEnv): Window {
  return ctx.page.isClosed() ? { page: env.page, watch: env.watch } : { page: ctx.page, watch: ctx.watch };
}

/** An action as run: its outcome, where its source writes it, and an assertion's values apart. */
function actionResult(
  action: UiPage['actions'][number],
  outcome: ActionOutcome,
  durationMs: number,
): UiActionResult {
  const { detail } = outcome;
  return {
    action: action.source.action,
    ...(action.source.line === undefined ? {} : { line: action.source.line }),
    locator: outcome.locator,
    passed: outcome.passed,
    message: outcome.message,
    duration_ms: round2(durationMs),
    ...(action.source.path === '' ? {} : { at: action.source.path }),
    ...(detail === undefined ? {} : { expected: detail.expected, actual: detail.actual }),
  };
}

/**
 * A page the step's actions loaded (`action`'s index; null for the step's URL): its timings and Web
 * Vitals once it has loaded, and a screenshot (docs/recorded-ui-tests.md "Results"). The time this
 * takes is measuring, left out of the step's duration.
 */
async function visitPage(env: StepEnv, page: Page, record: StepRecord, action: number | null): Promise<void> {
  if (record.pages.length >= UI_KEPT_PAGES_PER_STEP) return;
  const measures = await measure(page, record);
  if (measures === null) return;
  record.lastMeasured = measures;
  const t = performance.now();
  const screenshot = await env.shots.take(page, 'Page', false);
  record.measuringMs += performance.now() - t;
  if (screenshot !== null) record.shots.push(screenshot);
  record.pages.push({
    url: pageUrl(page),
    action,
    timings: measures.timings,
    vitals: measures.vitals,
    screenshot,
  });
}

/**
 * A failed action in words: a script's "clickByID (line 7) failed: …"; a recording's own step, as
 * "Selenium IDE test 'Sign in', command 7 `assertText id=out` — expected …" (ADR 0030 §1).
 */
function actionFailure(action: UiPage['actions'][number], message: string): string {
  const { action: written, line, path } = action.source;
  if (line === undefined && path !== '') return `${path} \`${written}\` — ${message}`;
  const at = line === undefined ? '' : ` (line ${line})`;
  return `${written}${at} failed: ${message}`;
}

/**
 * An action that opens a dialog no answer was chosen for ends there (the dialog waits for the next
 * command); the browser finishes it once the dialog is answered.
 */
async function untilDialog(action: Promise<ActionOutcome>, dialogs: Dialogs): Promise<ActionOutcome> {
  const opened = dialogs.opened();
  try {
    return await Promise.race([
      action,
      opened.promise.then((message) => ({ passed: true, locator: null, message })),
    ]);
  } finally {
    opened.stop();
    action.catch(() => undefined);
  }
}

function isAssertion(action: UiPage['actions'][number]): boolean {
  return action.kind.startsWith('assert');
}

function skipped(n: number): string {
  return n === 0 ? '' : `; the step's ${n === 1 ? 'last action was' : `${n} remaining actions were`} skipped`;
}
