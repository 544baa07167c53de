/**
 * The worker threads' code carried inside the one-file command line. build.mjs replaces this module in
 * dist/aqa-standalone.mjs (served as GET /downloads/aqa.mjs) with one that answers the two worker
 * bundles' text; everywhere else there is none, and the engine finds its worker files as usual.
 */
export function workerCode(_kind: 'load' | 'functional'): string | null {
  return null;
}
