export * from './contract';
export { CHROMIUM_ARGS } from './chromium-args';
export {
  DEFAULT_BROWSER_PATH,
  DEFAULT_STEP_TIMEOUT_MS,
  PoolClosedError,
  UiBrowserPool,
  type UiBrowserPoolOptions,
} from './browser-pool';
export { browsersPerUserProblem, DEFAULT_UI_BROWSERS, defaultBrowsersPerUser } from './limits';
export { createUiRunner } from './ui-run';
export { uiPagesOf, writtenUrls, type UiPage } from './ui-pages';
export { UiTally } from './ui-outcome';
