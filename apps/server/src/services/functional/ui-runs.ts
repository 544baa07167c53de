import type { FunctionalPlan } from '@aqa/plan';
import { createUiRunner, type StartUiRun, UiBrowserPool, uiPagesOf, writtenUrls } from '@aqa/ui-runner';
import type { UiBrowserSettings } from '../../config';
import { ServiceUnavailableError } from '../../errors';

/*
 * What the functional run service needs of the UI runner (docs/design.md §9 "UI tests"): a way to start
 * a UI run, whether this machine has a browser, and the pages a UI plan will open, so that a run that
 * cannot start is refused before anything is stored. app.ts builds it from the server's one browser
 * pool (packages/ui-runner).
 */
export interface UiRunSupport {
  start: StartUiRun;
  /** A sentence saying no browser is installed and what to do; null when one is. */
  browserProblem(): string | null;
  /**
   * The URLs the plan's pages and `go` actions write out in full; throws the Selenium reader's
   * SeleniumScriptError or TaurusScriptError for a script that cannot run.
   */
  pageUrls(plan: FunctionalPlan): string[];
}

/** The answer to a UI run on a server without a browser: 503, the sentence saying what to install. */
export function noBrowser(problem: string): ServiceUnavailableError {
  return new ServiceUnavailableError('BROWSER_UNAVAILABLE', problem);
}

/**
 * The server's one browser pool (packages/ui-runner), set by AQA_BROWSER_PATH, AQA_UI_BROWSERS,
 * AQA_UI_BROWSERS_PER_USER and AQA_UI_STEP_TIMEOUT_MS as config.ts read them (the runner's defaults for those unset; PATH is where
 * it looks for `chromium` when /usr/bin/chromium is absent). Nothing is launched until a run's turn.
 */
export function openUiBrowsers(
  settings: UiBrowserSettings,
  path: string | undefined,
): { support: UiRunSupport; close: () => Promise<void> } {
  const pool = UiBrowserPool.fromEnv({
    PATH: path,
    AQA_BROWSER_PATH: settings.browserPath,
    AQA_UI_BROWSERS: settings.maxBrowsers?.toString(),
    AQA_UI_BROWSERS_PER_USER: settings.maxPerUser?.toString(),
    AQA_UI_STEP_TIMEOUT_MS: settings.stepTimeoutMs?.toString(),
  });
  return {
    support: {
      start: createUiRunner(pool),
      browserProblem: () => pool.browserProblem(),
      pageUrls: (plan) => writtenUrls(uiPagesOf(plan)),
    },
    close: () => pool.close(),
  };
}
