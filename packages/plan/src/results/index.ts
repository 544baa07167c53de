export * from './error-kinds';
export * from './run-result';
export * from './live-snapshot';
export * from './chart-data';
export * from './past-run';
export * from './history';
export * from './agents';
