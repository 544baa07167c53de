export * from './validation';
export * from './functional-plan';
export * from './functional-result';
export * from './ui-step';
export * from './iteration-data';
export * from './ui-action';
export * from './ui-action-text';
export * from './ui-control-flow';
