// `npm run bench`: every benchmark of the project, one after the other (minutes, not seconds).
// Performance goals are checked here, never by timed unit tests (`npm test` runs none of these).
//
//   npm run bench                         all of them
//   npm run bench -- --skip many-users    all but one (repeatable)
//   npm run bench -- --only many-users    just one (repeatable)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, checkNodeVersion, ensureInstalled, log, run } from './lib/workspace.mjs';

checkNodeVersion();
ensureInstalled();

const BENCHES = [
  {
    id: 'import',
    name: 'import speed (large OpenAPI document)',
    file: 'packages/converters/bench/import-bench.mjs',
  },
  {
    id: 'recordings',
    name: 'recorded UI tests: import of a 500-command Selenium IDE project, run overhead per command',
    file: 'packages/ui-runner/bench/recording-bench.mjs',
  },
  { id: 'engine', name: 'load engine vs wrk and autocannon', file: 'packages/engine/bench/run.mjs' },
  {
    id: 'many-users',
    name: 'load engine: 10,000 users against a 1 s server for 60 s, memory per user',
    file: 'packages/engine/bench/many-users.mjs',
  },
  {
    id: 'profiles',
    name: 'load profiles: open-model rate precision at 500, 5,000 and 20,000 it/s, ramps against the line',
    file: 'packages/engine/bench/profile-bench.mjs',
  },
  {
    id: 'postman-sandbox',
    name: 'Postman script sandbox: ms per script, a VM per script vs one warm VM per user',
    file: 'packages/engine/bench/sandbox-bench.mjs',
  },
  {
    id: 'postman-real',
    name: 'published Postman collections: our import and runner against Newman, assertion by assertion (AQA_POSTMAN_COLLECTIONS=<folder>; skipped without)',
    file: 'packages/engine/bench/postman-real-parity.mjs',
  },
  {
    id: 'dashboards',
    name: 'dashboards with 1,000 plans and 20,000 runs',
    file: 'apps/server/bench/scale-bench.mjs',
  },
  {
    id: 'api-under-load',
    name: 'the API polled by 50 signed-in users, without and with a 500-user run going',
    file: 'packages/engine/bench/api-under-load.mjs',
  },
  {
    id: 'agents',
    name: 'runs on 1, 2 and 3 load agents of this machine: merged req/s, server CPU per snapshot',
    file: 'apps/server/bench/agents-bench.mjs',
  },
];

const { values: opt } = parseArgs({
  options: { only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true } },
});
const ids = BENCHES.map((b) => b.id);
for (const id of [...(opt.only ?? []), ...(opt.skip ?? [])])
  if (!ids.includes(id)) {
    log(`unknown bench ${JSON.stringify(id)}: one of ${ids.join(', ')}`);
    process.exit(2);
  }
const chosen = BENCHES.filter(
  (b) => (opt.only === undefined || opt.only.includes(b.id)) && !(opt.skip ?? []).includes(b.id),
);

let failed = 0;
for (const bench of chosen) {
  if (!existsSync(join(ROOT, bench.file))) continue;
  log(`── bench: ${bench.name} (${bench.id})`);
  if (run(process.execPath, [bench.file]) !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
