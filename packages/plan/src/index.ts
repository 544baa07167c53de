export * from './account';
export * from './perf-plan';
export * from './migrate-plan';
export * from './step-rules';
export * from './template';
export * from './text-command';
export * from './think-time';
export * from './results';
