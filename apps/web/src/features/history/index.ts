/**
 * What other features may use of the results-history feature (the lint rule of eslint.config.js lets them
 * import `@/features/history` and nothing deeper). Its screens are loaded by the router.
 */
export { formatDate, formatDateTime } from './model/run-format';
export { useDictation, type Dictation } from './hooks/useDictation';
