// `npm run bench`: every benchmark of the project, one after the other (minutes, not seconds).
// Performance goals are checked here, never by timed unit tests.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, checkNodeVersion, ensureInstalled, log, run } from './lib/workspace.mjs';

checkNodeVersion();
ensureInstalled();

const BENCHES = [
  { name: 'import speed (large OpenAPI document)', file: 'packages/converters/bench/import-bench.mjs' },
  { name: 'load engine vs wrk and autocannon', file: 'packages/engine/bench/run.mjs' },
  { name: 'dashboards with 1,000 plans and 20,000 runs', file: 'apps/server/bench/scale-bench.mjs' },
];

let failed = 0;
for (const bench of BENCHES) {
  if (!existsSync(join(ROOT, bench.file))) continue;
  log(`── bench: ${bench.name}`);
  if (run(process.execPath, [bench.file]) !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
