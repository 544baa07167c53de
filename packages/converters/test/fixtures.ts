/* eslint-disable no-restricted-imports -- Node-only test helper, imported by *.test.ts files only. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** ../shared/fixtures: real files written by other people (see its README). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url));

/** A shared fixture as an upload: its file name and bytes. */
export function fixture(path: string): { name: string; bytes: Uint8Array } {
  return {
    name: path.split('/').pop() ?? path,
    bytes: new Uint8Array(readFileSync(`${FIXTURES_DIR}${path}`)),
  };
}

/** Text as the bytes of an upload. */
export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
