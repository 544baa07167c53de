/**
 * The libraries Postman's sandbox gives a script, as texts to evaluate inside the QuickJS VM
 * (docs/adr/0028-postman-sandbox.md §2 "Libraries"): the global `_` is lodash 3 and `CryptoJS` is
 * crypto-js, as in Postman; `require('lodash')` is lodash 4, `require('crypto-js')` crypto-js and
 * `require('moment')` moment. Each is read from node_modules here; build.mjs replaces this module in
 * every bundle with one that holds the texts themselves (minified), so the bundles and the standalone
 * aqa.mjs need no node_modules to run a Postman script.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import files from './library-files.json';

/**
 * Each library the sandbox loads, by the name the VM asks for, and its one-file build in node_modules
 * (library-files.json: build.mjs reads the same table to embed them).
 */
export const SANDBOX_LIBRARY_FILES: Readonly<Record<keyof typeof files, string>> = files;

export type SandboxLibrary = keyof typeof SANDBOX_LIBRARY_FILES;

const cached = new Map<SandboxLibrary, string>();

export function librarySource(name: SandboxLibrary): string {
  let text = cached.get(name);
  if (text === undefined) {
    text = readFileSync(createRequire(import.meta.url).resolve(SANDBOX_LIBRARY_FILES[name]), 'utf8');
    cached.set(name, text);
  }
  return text;
}
