import { workerCode } from './embedded-worker-code';

/**
 * The worker entry the command line passes to the engine: in the one-file build its embedded code as a
 * data: URL (Node's Worker loads it as an ES module), so a local run of the downloaded aqa.mjs needs no
 * worker.mjs beside it; otherwise undefined, and the engine finds worker.mjs as usual (docs/design.md §4).
 */
export function embeddedWorkerEntry(kind: 'load' | 'functional'): URL | undefined {
  const code = workerCode(kind);
  if (code === null) return undefined;
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
