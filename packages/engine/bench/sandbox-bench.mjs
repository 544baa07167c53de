#!/usr/bin/env node
// The Postman script sandbox measured (`npm run bench -- --only postman-sandbox`, or alone): a typical
// test script run N times in a VM of its own each (runPostmanScript: a new QuickJS runtime, Chai and the
// API loaded for every script, as every script ran before) and in one warm VM (PostmanSandbox: what the
// functional runner keeps per virtual user), in ms per script; then the memory a warm VM holds, with
// U of them alive at once (one per user). The figures go to docs/adr/0028-postman-sandbox.md §1
// ("Cost") and docs/performance.md.
//
// The sandbox is bundled the way build.mjs bundles the engine (Chai minified inside), as the server
// and the standalone aqa.mjs run it. Exit 1 when a warm script is not at least 10 times cheaper.
//
//   node packages/engine/bench/sandbox-bench.mjs [--cold 40] [--warm 400] [--users 50]
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const log = (s = '') => process.stdout.write(`${s}\n`);
const { values: opt } = parseArgs({
  options: {
    cold: { type: 'string', default: '40' },
    warm: { type: 'string', default: '400' },
    users: { type: 'string', default: '50' },
  },
});
const COLD = Number(opt.cold);
const WARM = Number(opt.warm);
const USERS = Number(opt.users);

const SOURCE = `pm.test('ok', () => { pm.response.to.have.status(200); pm.expect(pm.response.json().id).to.eql(1); });`;
const body = JSON.stringify({ id: 1, name: 'Ada' });
const run = {
  event: 'test',
  source: SOURCE,
  request: { name: 'Get user', method: 'GET', url: 'http://127.0.0.1:1/users/1', headers: [] },
  response: {
    code: 200,
    status: 'OK',
    headers: [{ key: 'Content-Type', value: 'application/json' }],
    body,
    responseTime: 4,
    responseSize: body.length,
  },
  variables: { globals: {}, collection: {}, environment: { token: 't' }, data: {}, local: {} },
  iteration: 0,
  iterationCount: 1,
};
const host = { sendRequest: async () => ({ error: 'no network in this bench' }) };

const fmt = (n, d = 1) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: at(0.5), p95: at(0.95) };
};
const line = (label, st) =>
  log(
    `  ${label.padEnd(34)} mean ${fmt(st.mean, 2).padStart(7)} ms   p50 ${fmt(st.p50, 2).padStart(7)} ms   p95 ${fmt(st.p95, 2).padStart(7)} ms`,
  );
const check = (out) => {
  if (out.error || out.tests.length !== 1 || !out.tests[0].passed)
    throw new Error(`the bench script did not pass: ${JSON.stringify(out)}`);
};

const dir = mkdtempSync(join(tmpdir(), 'aqa-sandbox-bench-'));
try {
  const { buildSelfContained } = await import(pathToFileURL(join(HERE, '..', 'build.mjs')).href);
  const bundle = await buildSelfContained(
    join(HERE, '..', 'src/functional/postman/index.ts'),
    join(dir, 'postman.mjs'),
  );
  const { runPostmanScript, PostmanSandbox } = await import(pathToFileURL(bundle).href);

  log(`Postman sandbox bench, ${new Date().toISOString()}`);
  log(
    `  node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );

  // The WebAssembly module loads once per process (0.2 to 0.7 s): not a script's cost.
  let t = performance.now();
  check(await runPostmanScript(run, host));
  log(`  first script of the process (loads QuickJS): ${fmt(performance.now() - t, 0)} ms`);

  // Memory first, before other VMs have come and gone in the WebAssembly heap: U users' VMs at once.
  const before = process.memoryUsage().rss;
  const boxes = Array.from({ length: USERS }, () => new PostmanSandbox());
  for (const b of boxes) check(await b.run(run, host));
  const grew = process.memoryUsage().rss - before;
  for (const b of boxes) b.dispose();
  const mb = (n) => fmt(n / 1024 / 1024, 1);
  log(`  ${USERS} warm VMs alive at once (one per user): rss +${mb(grew)} MB, ${mb(grew / USERS)} MB a VM`);

  const cold = [];
  for (let i = 0; i < COLD; i++) {
    t = performance.now();
    check(await runPostmanScript(run, host));
    cold.push(performance.now() - t);
  }
  const warmBox = new PostmanSandbox();
  t = performance.now();
  check(await warmBox.run(run, host));
  const firstWarm = performance.now() - t;
  const warm = [];
  for (let i = 0; i < WARM; i++) {
    t = performance.now();
    check(await warmBox.run(run, host));
    warm.push(performance.now() - t);
  }
  warmBox.dispose();

  const c = stats(cold);
  const w = stats(warm);
  log(`\nms per script (${COLD} cold, ${WARM} warm):`);
  line('a VM per script (runPostmanScript)', c);
  line('one warm VM (PostmanSandbox)', w);
  log(`  the warm VM's first script (makes it): ${fmt(firstWarm, 1)} ms`);
  log(
    `  → ${fmt(c.mean / w.mean, 0)} × cheaper; 100 requests with a test script: ${fmt((c.mean * 100) / 1000, 2)} s cold, ${fmt((firstWarm + w.mean * 99) / 1000, 2)} s warm (first iteration), ${fmt((w.mean * 100) / 1000, 2)} s warm (later ones)`,
  );

  log(
    `  load average at the end ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );

  if (c.mean / w.mean < 10) {
    log(`\nFAIL: a warm script is only ${fmt(c.mean / w.mean, 1)} × cheaper than a cold one (goal: 10 ×)`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
