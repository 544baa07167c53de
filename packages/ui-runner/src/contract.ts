import type { FunctionalRunHandle, FunctionalRunOptions } from '@aqa/engine';
import type { FunctionalPlan } from '@aqa/plan';

/*
 * The UI runner's contract (docs/design.md §9 "UI tests"): the server and the tests hand it a UI plan
 * (a UI URL plan, or a script plan whose framework is selenium) and get the functional runner's handle
 * back, so a UI run is stored, polled, stopped and reported like an API run.
 */

/** A screenshot to keep with the run: JPEG bytes. */
export interface UiScreenshot {
  jpeg: Buffer;
  /** "Step", "Failure", or the screenshot action's file name. */
  label: string;
  failure: boolean;
}

export interface UiRunOptions extends FunctionalRunOptions {
  /** Keeps a screenshot and answers its id (the server stores it with the run, served to its owner only). */
  saveScreenshot: (shot: UiScreenshot) => Promise<string>;
  /**
   * Whose run it is (the user's id): one user's runs hold at most the pool's per-user share of the
   * browsers. A run without an owner counts against no one's share.
   */
  owner?: string;
  /** Called with the run's place in the browser queue (1 = next), and null once it has a browser. */
  onQueued?: (position: number | null) => void;
}

export type StartUiRun = (plan: FunctionalPlan, options: UiRunOptions) => FunctionalRunHandle;
