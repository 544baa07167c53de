// Bundles the server into one ESM file, dist/main.mjs, that `node apps/server/dist/main.mjs` runs, and
// the import worker (which parses uploaded documents off the event loop) into dist/import-worker.mjs,
// which main.mjs starts from its own folder (and Validate's judging thread into dist/validate-worker.mjs,
// alike), and the load engine's worker-thread entry into
// dist/engine-worker.mjs, which the server passes to the engine as its workerEntry (and the functional
// runner's into dist/functional-worker.mjs, which the engine finds beside main.mjs or is passed), and
// the `aqa` command line as one self-contained file into dist/aqa.mjs, which the server serves.
// Our workspace packages (@aqa/*) are TypeScript source, so they are bundled in; every other npm
// dependency stays external and is loaded from node_modules (native addons such as libsql and
// @node-rs/argon2 cannot be bundled, and keeping one copy of zod keeps `instanceof` checks true).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@aqa/'));
const engineDir = dirname(createRequire(import.meta.url).resolve('@aqa/engine/package.json'));

const started = Date.now();
await build({
  entryPoints: {
    main: join(here, 'src', 'main.ts'),
    'import-worker': join(here, 'src', 'services', 'import', 'import.worker.ts'),
    'validate-worker': join(here, 'src', 'services', 'validate', 'judge.worker.ts'),
    'engine-worker': join(engineDir, 'src', 'worker', 'entry.ts'),
    'functional-worker': join(engineDir, 'src', 'functional', 'worker-entry.ts'),
  },
  outdir: join(here, 'dist'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  // External CommonJS packages may be reached through esbuild's require shim; ESM has no
  // `require`, so define one for each file.
  banner: {
    js: "import { createRequire as __aqaCreateRequire } from 'node:module';\nconst require = __aqaCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// The one-file `aqa` command line the server hands out at GET /downloads/aqa.mjs, beside main.mjs.
const engineBuild = await import(pathToFileURL(join(engineDir, 'build.mjs')).href);
await engineBuild.buildStandaloneCli(join(here, 'dist', 'aqa.mjs'));
console.log(
  `Built apps/server/dist/main.mjs, import-worker.mjs, validate-worker.mjs, engine-worker.mjs, functional-worker.mjs and aqa.mjs in ${Date.now() - started} ms`,
);
