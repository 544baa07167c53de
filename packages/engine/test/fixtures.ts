import { fileURLToPath } from 'node:url';

/** test-fixtures/ at the repository root: real files written by other people (see its README). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../test-fixtures/', import.meta.url));
