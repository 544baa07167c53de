/* eslint-disable no-restricted-imports -- Node-only test helper, imported by *.test.ts files only. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** test-fixtures/ at the repository root: real files written by other people (see its README). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../test-fixtures/', import.meta.url));

/**
 * The browser recordings (Selenium IDE, Chrome Recorder) and the pages they run against live with the UI
 * runner, which serves them to Chromium; test-fixtures/README.md says why they are kept there only.
 */
export const RECORDINGS_DIR = fileURLToPath(new URL('../../ui-runner/test-fixtures/', import.meta.url));

function upload(dir: string, path: string): { name: string; bytes: Uint8Array } {
  return { name: path.split('/').pop() ?? path, bytes: new Uint8Array(readFileSync(`${dir}${path}`)) };
}

/** A file of test-fixtures/ as an upload: its file name and bytes. */
export function fixture(path: string): { name: string; bytes: Uint8Array } {
  return upload(FIXTURES_DIR, path);
}

/** A recording of packages/ui-runner/test-fixtures as an upload (`selenium-ide/sides/…`, `chrome-recorder/…`). */
export function recordingFixture(path: string): { name: string; bytes: Uint8Array } {
  return upload(RECORDINGS_DIR, path);
}

/** Text as the bytes of an upload. */
export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
