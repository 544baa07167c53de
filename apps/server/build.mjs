// Bundles the server into one ESM file, dist/main.mjs, that `node apps/server/dist/main.mjs` runs.
// Our workspace packages (@aqa/*) are TypeScript source, so they are bundled in; every other npm
// dependency stays external and is loaded from node_modules (native addons such as libsql and
// @node-rs/argon2 cannot be bundled, and keeping one copy of zod keeps `instanceof` checks true).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@aqa/'));

const started = Date.now();
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(here, 'dist', 'main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  // External CommonJS packages may be reached through esbuild's require shim; ESM has no
  // `require`, so define one for this file.
  banner: {
    js: "import { createRequire as __aqaCreateRequire } from 'node:module';\nconst require = __aqaCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`Built apps/server/dist/main.mjs in ${Date.now() - started} ms`);
