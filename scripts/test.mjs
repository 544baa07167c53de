// `npm test`: install what is missing (npm packages; Debian's chromium, JMeter and Locust when root),
// then lint, format check, typecheck, unit + API tests (vitest), build, and browser tests (Playwright).
// Every step runs even when an earlier one failed, so one run reports everything; the exit code is 1
// when any step failed.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, checkNodeVersion, ensureBuilt, ensureInstalled, log, run } from './lib/workspace.mjs';
import { ensureSystemPackages } from './lib/system-packages.mjs';

checkNodeVersion();
ensureInstalled();
ensureSystemPackages();

const RESULTS = join(ROOT, 'test-results');
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const steps = [
  { name: 'lint', run: () => run(bin('eslint'), ['--max-warnings=0', '.']) },
  { name: 'format', run: () => run(bin('prettier'), ['--check', '--log-level=warn', '.']) },
  { name: 'typecheck', run: () => run(process.execPath, ['scripts/typecheck.mjs']) },
  {
    name: 'unit and API tests',
    run: () =>
      run(bin('vitest'), [
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(RESULTS, 'vitest.json')}`,
      ]),
  },
  {
    name: 'build',
    run: () => {
      ensureBuilt();
      return 0;
    },
  },
  {
    name: 'browser tests',
    run: () =>
      run(bin('playwright'), ['test'], {
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: join(RESULTS, 'e2e.json') },
      }),
  },
];

const outcomes = [];
for (const step of steps) {
  log(`── ${step.name}`);
  const started = Date.now();
  let code;
  try {
    code = step.run();
  } catch (error) {
    process.stderr.write(`${String(error)}\n`);
    code = 1;
  }
  outcomes.push({ name: step.name, ok: code === 0, seconds: (Date.now() - started) / 1000 });
}

/** Test counts from the runners' JSON reports (absent when a runner could not start). */
function counts() {
  const total = { passed: 0, failed: 0, skipped: 0 };
  const vitestFile = join(RESULTS, 'vitest.json');
  if (existsSync(vitestFile)) {
    const report = JSON.parse(readFileSync(vitestFile, 'utf8'));
    total.passed += report.numPassedTests ?? 0;
    total.failed += report.numFailedTests ?? 0;
    total.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  const e2eFile = join(RESULTS, 'e2e.json');
  if (existsSync(e2eFile)) {
    const stats = JSON.parse(readFileSync(e2eFile, 'utf8')).stats ?? {};
    total.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    total.failed += stats.unexpected ?? 0;
    total.skipped += stats.skipped ?? 0;
  }
  return total;
}

log('── summary');
for (const outcome of outcomes) {
  log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.name} (${outcome.seconds.toFixed(1)} s)`);
}
const failedSteps = outcomes.filter((o) => !o.ok).length;
const total = counts();
// A failed step without failed tests (lint, typecheck, build) still counts as a failure.
const failed = total.failed + (failedSteps > 0 && total.failed === 0 ? failedSteps : 0);
process.stdout.write(`\nTests: ${total.passed} passed, ${failed} failed, ${total.skipped} skipped\n`);
process.exit(failedSteps > 0 ? 1 : 0);
