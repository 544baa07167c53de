export * from './random-plan';
