import { checkableUrl, type FunctionalRunHandle, type StartFunctionalRun } from '@aqa/engine';
import { type FunctionalPlan, type FunctionalResult, runKindOf, type TestKind } from '@aqa/plan';
import type { UiRunOptions } from '@aqa/ui-runner';
import type { FunctionalRunRow } from '../../db/schema';
import type { RunKindAdapter } from '../lifecycle/run-kind';
import type { FunctionalRunEnding } from '../message.service';
import { CALLS_WORDING, functionalRunMessage, STEPS_WORDING } from '../message-text';
import { refuseFunctionalPlanPatterns } from '../pattern-refusal';
import {
  callsTally,
  type CheckpointedRun,
  interruptedRun,
  type RecoveryTally,
  stepsTally,
} from './functional-recovery';
import type { FunctionalRunEnded } from './functional-run-store';
import { scriptRunPlan, servedScript } from './functional-script';
import type { LiveFunctionalRun } from './live-functional-run';
import { noBrowser, type UiRunSupport } from './ui-runs';

/*
 * What differs between an API, a script and a UI run (docs/run-lifecycle.md §7): how the plan sent is
 * read into the plan the runner runs, which origins the target guard decides before it starts, whether
 * this server can run it now, which runner starts it, how a run a dead server left is rebuilt (its
 * runner's tally) and the words of its message (calls or steps) — the kind-adapter interface the load
 * runs' adapter (runs/load-kind.ts) implements too. FunctionalRunService picks the adapter by the kind
 * whose runner runs the plan (runKindOf) and does the rest the same way for all three.
 */

/** The kinds of test FunctionalRunService runs. */
export type FunctionalKind = Exclude<TestKind, 'load'>;

/** What the service gives every runner: the guard, each judged call, and what a UI run also takes. */
export type FunctionalStartOptions = UiRunOptions & { owner: string };

/**
 * An API, script or UI kind's adapter, of the one kind-adapter interface (lifecycle/run-kind.ts): its
 * `prepare` answers the plan the runner runs (a Taurus script's read into its calls) and the origins to
 * guard; a plan that cannot run (a Selenium script's unknown action by name and line, a pattern RE2
 * cannot run) is refused in words and nothing is stored.
 */
export type FunctionalKindAdapter = RunKindAdapter<{
  sent: FunctionalPlan;
  plan: FunctionalPlan;
  options: FunctionalStartOptions;
  handle: FunctionalRunHandle;
  live: LiveFunctionalRun;
  /** Its result so far. */
  view: FunctionalResult;
  row: FunctionalRunRow;
  measured: CheckpointedRun;
  ended: FunctionalRunEnded;
  outcome: FunctionalRunEnding;
}>;

/** What every functional kind's adapter answers alike: a live run's view is its result so far. */
function viewAndRecovery(
  tally: (plan: FunctionalPlan | null) => RecoveryTally,
): Pick<FunctionalKindAdapter, 'view' | 'recover'> {
  return {
    view: (live) => live.result(),
    recover: (row, measured) => interruptedRun(row, measured, tally(measured.plan)),
  };
}

/** The origins of the URLs whose host is written out; a template host is checked during the run. */
function originsOf(urls: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const url of urls) {
    const checkable = url === '' ? null : checkableUrl(url);
    if (checkable !== null) origins.add(checkable.origin);
  }
  return origins;
}

/** Every written-out host of the plan's calls and OAuth2 token URLs (docs/adr/0015-target-guard.md). */
function callOrigins(plan: FunctionalPlan): Set<string> {
  return originsOf(
    plan.apis.flatMap((api) => [
      api.url,
      api.authorization.type === 'oauth2' ? api.authorization.tokenUrl : '',
    ]),
  );
}

/** An API plan's or a Taurus script's calls, run by the engine's functional runner off the event loop. */
function callsAdapter(
  startRun: StartFunctionalRun,
  read: (sent: FunctionalPlan) => FunctionalPlan,
): FunctionalKindAdapter {
  return {
    async prepare(sent) {
      const plan = read(sent);
      // A pattern or JSONPath filter that cannot run is refused in words before anything starts (docs/adr/0022-linear-time-patterns.md).
      await refuseFunctionalPlanPatterns(plan, 'PLAN_CANNOT_RUN');
      return { plan, origins: callOrigins(plan) };
    },
    unavailable: () => null,
    // The runner's worker takes only what it can be sent: the guard's settings and the call callback.
    start: (plan, { guard, onCall }) => startRun(plan, { guard, onCall }),
    // Rebuilt by the engine's functional runner's tally; its message counts calls.
    ...viewAndRecovery(callsTally),
    message: (run) => functionalRunMessage(run, CALLS_WORDING),
  };
}

/** A UI plan, or a Selenium script, run in Chromium through the server's one browser pool (docs/design.md §9 "UI tests"). */
function uiAdapter(ui: UiRunSupport): FunctionalKindAdapter {
  return {
    prepare: (sent) => {
      // Runs as sent, once its pages read (a Selenium script's unknown actions are refused by name and line).
      const pageUrls = servedScript(() => ui.pageUrls(sent));
      return Promise.resolve({ plan: sent, origins: originsOf(pageUrls) });
    },
    unavailable: () => {
      const problem = ui.browserProblem();
      return problem === null ? null : noBrowser(problem);
    },
    start: (plan, options) => ui.start(plan, options),
    // Rebuilt by the UI runner's tally; its message counts steps.
    ...viewAndRecovery(stepsTally),
    message: (run) => functionalRunMessage(run, STEPS_WORDING),
  };
}

/** The adapter of each kind FunctionalRunService runs, over the engine's functional runner and the UI runner. */
export function functionalKinds(
  startRun: StartFunctionalRun,
  ui: UiRunSupport,
): Readonly<Record<FunctionalKind, FunctionalKindAdapter>> {
  return {
    api: callsAdapter(startRun, (sent) => sent),
    script: callsAdapter(startRun, (sent) => scriptRunPlan(sent).plan),
    ui: uiAdapter(ui),
  };
}

/**
 * The adapter whose runner runs the plan (runKindOf: a Selenium script runs as a UI test). A functional
 * plan carries no stored kind, so it never reads as a load plan; if it did, its calls would run as an
 * API test's.
 */
export function adapterFor(
  kinds: Readonly<Record<FunctionalKind, FunctionalKindAdapter>>,
  plan: FunctionalPlan,
): FunctionalKindAdapter {
  const kind = runKindOf(plan);
  return kind === 'load' ? kinds.api : kinds[kind];
}

/**
 * The adapter of a stored run a dead server left unfinished: the one whose runner ran its plan, or, for
 * a plan that no longer reads, its stored kind's (a script's framework was in its plan).
 */
export function adapterOfStored(
  kinds: Readonly<Record<FunctionalKind, FunctionalKindAdapter>>,
  run: { kind: TestKind },
  plan: FunctionalPlan | null,
): FunctionalKindAdapter {
  if (plan !== null) return adapterFor(kinds, plan);
  return run.kind === 'load' ? kinds.api : kinds[run.kind];
}
