/**
 * The text of Chai's one-file ESM build, read from node_modules. build.mjs replaces this module in every
 * bundle with one that holds the text itself, so the bundles (and the standalone aqa.mjs) need no
 * node_modules to run a Postman script (docs/adr/0028-postman-sandbox.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export function chaiEsm(): string {
  return readFileSync(createRequire(import.meta.url).resolve('chai'), 'utf8');
}
