#!/usr/bin/env node
// `aqa` — runs the prebuilt bundle dist/aqa.mjs, building it first with esbuild when it is missing
// or older than the sources (a fresh clone needs no build step; see ../build.mjs).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

const here = new URL('.', import.meta.url);
const dist = new URL('../dist/', here);
let needBuild = !existsSync(new URL('aqa.mjs', dist)) || !existsSync(new URL('worker.mjs', dist));
let build;
try {
  // Present in the workspace (esbuild is a dev dependency of the root); absent in a packaged copy.
  build = await import(new URL('../build.mjs', here).href);
} catch {
  build = undefined;
}
if (build && (needBuild || build.isStale())) {
  await build.build();
  needBuild = false;
}
if (needBuild) {
  process.stderr.write(
    'aqa: dist/aqa.mjs is missing and cannot be built here (run `node packages/engine/build.mjs`)\n',
  );
  process.exit(2);
}
await import(pathToFileURL(join(new URL('.', dist).pathname, 'aqa.mjs')).href);
