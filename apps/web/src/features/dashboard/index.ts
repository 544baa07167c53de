/**
 * What the router uses of the dashboard feature (the lint rule of eslint.config.js lets other code import
 * `@/features/dashboard` and nothing deeper). The dashboard screen is loaded by the router.
 */
export { fetchRecentResults, RecentResultsContext, type RecentResultsSource } from './queries/recent-results';
