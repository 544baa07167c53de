// Builds the engine's runnable bundles into dist/ with esbuild:
//   dist/aqa.mjs     the `aqa` command line (src/cli/main.ts)
//   dist/index.mjs   the engine's API for callers that cannot load TypeScript (src/index.ts)
//   dist/worker.mjs  the worker-thread entry (src/worker/entry.ts); the two bundles above start it
//                    from their own directory, so the files always travel together.
//   dist/functional-worker.mjs  the functional run's worker-thread entry (src/functional/worker-entry.ts),
//                    found the same way.
//   dist/aqa-standalone.mjs  the same command line as ONE file with every npm dependency inlined: the
//                    file the server serves at GET /downloads/aqa.mjs (docs/reference/02-running.md §7),
//                    which `node aqa.mjs` runs with nothing installed; the worker threads' code is
//                    inside it too, so its local runs need nothing beside it.
// @aqa/plan (TypeScript source) is bundled in; npm dependencies stay external (but in the standalone file).
// `ensureBuilt()` rebuilds only when a source file is newer than the bundles, so bin/aqa.mjs and
// the engine's source mode (tests, tsx) can call it on every start.
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));
const DIST = join(ROOT, 'dist');
const ENTRIES = {
  aqa: join(ROOT, 'src/cli/main.ts'),
  index: join(ROOT, 'src/index.ts'),
  worker: join(ROOT, 'src/worker/entry.ts'),
  'functional-worker': join(ROOT, 'src/functional/worker-entry.ts'),
};
const EXTERNAL = [
  'undici',
  'jsonpath-plus',
  'xpath',
  '@xmldom/xmldom',
  'zod',
  'ajv',
  'ajv-formats',
  'quickjs-emscripten-core',
  '@jitl/quickjs-singlefile-cjs-release-sync',
  'tough-cookie',
];
const SOURCES = [
  join(ROOT, 'src'),
  join(ROOT, '../plan/src'),
  join(ROOT, 'build.mjs'),
  join(ROOT, 'package.json'),
];

function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

const STANDALONE = 'aqa-standalone';

function oldestOutput() {
  let oldest = Infinity;
  for (const name of [...Object.keys(ENTRIES), STANDALONE]) {
    try {
      oldest = Math.min(oldest, statSync(join(DIST, `${name}.mjs`)).mtimeMs);
    } catch {
      return 0;
    }
  }
  return oldest;
}

export function isStale() {
  return SOURCES.reduce((m, p) => Math.max(m, newestMtime(p)), 0) >= oldestOutput();
}

/** Builds the bundles (always). Writes each file atomically, so concurrent builds are harmless. */
export async function build() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: ENTRIES,
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
    banner: REQUIRE_BANNER,
    plugins: [embedChai],
  });
  mkdirSync(DIST, { recursive: true });
  for (const f of result.outputFiles) writeAtomically(f.path, f.contents);
  await buildStandaloneCli(join(DIST, `${STANDALONE}.mjs`));
  return DIST;
}

/**
 * The Postman sandbox evaluates Chai 4's browser build inside its VM (docs/adr/0028-postman-sandbox.md),
 * and the libraries a script asks for (lodash 3 and 4, crypto-js, moment: §2 "Libraries"): every bundle
 * carries those texts, minified, in place of src/functional/postman/chai-umd.ts and library-sources.ts,
 * which read them from node_modules.
 */
const minified = async (file) => {
  const esbuild = await import('esbuild');
  const text = readFileSync(createRequire(import.meta.url).resolve(file), 'utf8');
  return (await esbuild.transform(text, { minify: true, keepNames: true, target: 'es2019' })).code;
};
/** library-sources.ts's table of the sandbox's libraries (one file, so the two cannot differ). */
const libraryFiles = () =>
  JSON.parse(readFileSync(join(ROOT, 'src/functional/postman/library-files.json'), 'utf8'));
const embedChai = {
  name: 'aqa-embedded-chai',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]functional[\\/]postman[\\/]chai-umd\.ts$/ }, async () => {
      const code = await minified('chai-v4/chai.js');
      return { contents: `export function chaiUmd() { return ${JSON.stringify(code)}; }`, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]src[\\/]functional[\\/]postman[\\/]library-sources\.ts$/ }, async () => {
      const files = libraryFiles();
      const texts = {};
      for (const [name, file] of Object.entries(files)) texts[name] = await minified(file);
      return {
        contents: `export const SANDBOX_LIBRARY_FILES = ${JSON.stringify(files)};\nconst TEXTS = ${JSON.stringify(texts)};\nexport function librarySource(name) { return TEXTS[name]; }`,
        loader: 'js',
      };
    });
  },
};

/** Bundled CJS dependencies may call require(); give ESM output one. */
const REQUIRE_BANNER = {
  js: "import { createRequire as __aqaCreateRequire } from 'node:module'; const require = __aqaCreateRequire(import.meta.url);",
};

function writeAtomically(path, contents) {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

/** Node's own modules are the only imports a one-file bundle may keep; anything else is an error. */
function checkSelfContained(result, what) {
  const external = Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !isNodeBuiltin(i.path))
    .map((i) => i.path);
  if (external.length > 0) {
    throw new Error(`${what} would import ${[...new Set(external)].join(', ')} at run time`);
  }
}

const SELF_CONTAINED = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'warning',
  metafile: true,
};

/**
 * `entry` as one module with nothing external but Node's own modules, written to `outfile`: how a test
 * proves that a part of the engine (the Postman sandbox, with its WebAssembly and Chai) runs from a
 * bundle alone, as it must inside the worker bundles and the standalone aqa.mjs.
 */
export async function buildSelfContained(entry, outfile) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...SELF_CONTAINED,
    entryPoints: [entry],
    outfile,
    banner: REQUIRE_BANNER,
    plugins: [embedChai],
  });
  checkSelfContained(result, entry);
  mkdirSync(dirname(outfile), { recursive: true });
  for (const f of result.outputFiles) writeAtomically(f.path, f.contents);
  return outfile;
}

/**
 * A worker entry as one self-contained module's text. It runs from a data: URL, which has no file to
 * resolve require() from, so its require (Node's own modules only) is made from Node's own path.
 */
async function workerSource(esbuild, entry) {
  const result = await esbuild.build({
    ...SELF_CONTAINED,
    entryPoints: [entry],
    outfile: 'worker.mjs',
    minify: true,
    plugins: [embedChai],
    banner: {
      js: "import { createRequire as __aqaCreateRequire } from 'node:module'; const require = __aqaCreateRequire(process.execPath);",
    },
  });
  checkSelfContained(result, entry);
  // Carried gzipped and base64-encoded: a quarter of the size of the text as a JSON string.
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).toString('base64');
}

/**
 * The command line as one file with nothing external but Node's own modules, written to `outfile`
 * (the server's build calls this too, so its dist/ holds the file it serves). The worker threads'
 * code is carried inside it (src/cli/embedded-worker-code.ts is replaced by their text), so its local
 * runs need no file beside it either. No source map: the file travels alone.
 */
export async function buildStandaloneCli(outfile) {
  const esbuild = await import('esbuild');
  const code = {
    load: await workerSource(esbuild, ENTRIES.worker),
    functional: await workerSource(esbuild, ENTRIES['functional-worker']),
  };
  const embed = {
    name: 'aqa-embedded-workers',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]embedded-worker-code\.ts$/ }, () => ({
        contents: [
          "import { gunzipSync } from 'node:zlib';",
          `const CODE = ${JSON.stringify(code)};`,
          "export function workerCode(kind) { return gunzipSync(Buffer.from(CODE[kind], 'base64')).toString('utf8'); }",
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
  const result = await esbuild.build({
    ...SELF_CONTAINED,
    entryPoints: [ENTRIES.aqa],
    outfile,
    banner: { js: `#!/usr/bin/env node\n${REQUIRE_BANNER.js}` },
    plugins: [embed, embedChai],
  });
  checkSelfContained(result, 'the standalone aqa.mjs');
  mkdirSync(dirname(outfile), { recursive: true });
  for (const f of result.outputFiles) writeAtomically(f.path, f.contents);
  return outfile;
}

function isNodeBuiltin(path) {
  return path.startsWith('node:') || builtinModules.includes(path);
}

/** Builds when missing or older than the sources; returns the dist directory. */
export async function ensureBuilt() {
  if (isStale()) await build();
  return DIST;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build();
  process.stdout.write(
    `built ${[...Object.keys(ENTRIES), STANDALONE].map((n) => `dist/${n}.mjs`).join(', ')}\n`,
  );
}
