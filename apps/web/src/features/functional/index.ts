/**
 * What other features may use of the functional feature (the lint rule of eslint.config.js lets them
 * import `@/features/functional` and nothing deeper): the runs list, for Recent Activity on the home
 * dashboard and Previous Results, and how a run's summary and View Result are drawn in a list. Its screens
 * are loaded by the router.
 */
export { FunctionalSummaryCounts, ViewFunctionalResultButton } from './board/components/RunSummary';
export { fetchFunctionalResults } from './queries/result-api';
