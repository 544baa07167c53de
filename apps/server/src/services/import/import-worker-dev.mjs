// Starts the import worker from its TypeScript source, for vitest and `tsx watch`: tsx compiles it in
// the worker thread. The production build bundles import.worker.ts into dist/import-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./import.worker.ts');
