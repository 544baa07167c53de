// Starts Validate's judging thread from its TypeScript source, for vitest and `tsx watch`: tsx compiles
// it in the worker thread. The production build bundles judge.worker.ts into dist/validate-worker.mjs.
import { register } from 'tsx/esm/api';

register();
await import('./judge.worker.ts');
