import { fileURLToPath } from 'node:url';

/** test-fixtures/ at the repository root: real files written by other people (see its README). */
export const FIXTURES = fileURLToPath(new URL('../../../test-fixtures/', import.meta.url));

/**
 * The browser recordings and the pages they run against, kept with the UI runner only
 * (test-fixtures/README.md, "Browser recordings").
 */
export const RECORDINGS = fileURLToPath(
  new URL('../../../packages/ui-runner/test-fixtures/', import.meta.url),
);
