/* eslint-disable no-restricted-imports, no-console -- A Node-only benchmark script, never part of the browser bundle. */
// Import speed: how long @aqa/converters takes to turn a multi-megabyte OpenAPI document into plan steps
// (docs/design.md §7: "the largest real OpenAPI documents import in seconds, not minutes"), and how much memory
// it holds while doing so. The converters are TypeScript source, so they are bundled with esbuild first,
// the way the server bundles them. Exits 1 if an import takes longer than the limit.
//
//   node packages/converters/bench/import-bench.mjs [--runs 3] [--limit-s 20] [--resources 110]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { writeBigOpenApi } from './make-big-openapi.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'limit-s': { type: 'string', default: '20' },
    resources: { type: 'string', default: '110' },
  },
});
const runs = Math.max(1, Number(values.runs));
const limitMs = Number(values['limit-s']) * 1000;

const workDir = mkdtempSync(join(tmpdir(), 'aqa-import-bench-'));
const bundle = join(workDir, 'converters.mjs');
await build({
  entryPoints: [join(here, '..', 'src', 'index.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies (yaml) require Node built-ins; ESM has no `require`, so define one.
  banner: {
    js: "import { createRequire as __aqaCreateRequire } from 'node:module';\nconst require = __aqaCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const { importFile } = await import(pathToFileURL(bundle).href);

const generated = writeBigOpenApi({ resources: Number(values.resources), out: workDir });
// A real document too: Trello's API description (test-fixtures/README.md).
const trello = join(here, '..', '..', '..', 'test-fixtures', 'openapi', 'large', 'trello-1.0.yaml');
const cases = [
  { label: 'generated OpenAPI 3.0 (JSON)', path: generated.jsonPath },
  { label: 'generated OpenAPI 3.0 (YAML)', path: generated.yamlPath },
  { label: 'Trello Swagger 2.0 (YAML, real)', path: trello },
];

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`Import speed (Node ${process.version}, best of ${runs})`);
let failed = false;
for (const { label, path } of cases) {
  const bytes = new Uint8Array(readFileSync(path));
  const times = [];
  let result;
  let peakHeap = 0;
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = importFile({ name: path.split('/').pop(), bytes });
    times.push(performance.now() - started);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - heapBefore);
  }
  const best = Math.min(...times);
  const slow = best > limitMs;
  failed ||= slow;
  console.log(
    `  ${label.padEnd(34)} ${mb(bytes.length).padStart(7)}  ${String(result.info.requests).padStart(4)} operations → ${String(result.steps.length).padStart(4)} steps  ${(best / 1000).toFixed(2).padStart(6)} s  (runs: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s; heap in use after: +${mb(peakHeap)})${slow ? `  SLOWER THAN ${limitMs / 1000} s` : ''}`,
  );
}
rmSync(workDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
