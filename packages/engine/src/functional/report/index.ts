/** A functional run's downloadable reports (docs/design.md §9): JUnit XML, JSON and one HTML page. */
export { functionalJunitReport } from './junit';
export { functionalJsonReport } from './json';
export { functionalHtmlReport } from './html';
export { callName, failedRuleLines } from './calls';
export { msText } from './text';
