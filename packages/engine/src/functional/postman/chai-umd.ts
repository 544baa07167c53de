/**
 * The text of Chai 4's browser build (`chai/chai.js`, installed as `chai-v4`: Postman's sandbox runs
 * Chai 4, so its messages are the ones Postman users see), read from node_modules. build.mjs replaces
 * this module in every bundle with one that holds the text itself (minified), so the bundles and the
 * standalone aqa.mjs need no node_modules to run a Postman script (docs/adr/0028-postman-sandbox.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export function chaiUmd(): string {
  return readFileSync(createRequire(import.meta.url).resolve('chai-v4/chai.js'), 'utf8');
}
