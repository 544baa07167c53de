// `npm test`: install what is missing (npm packages; Debian's chromium, JMeter and Locust when root),
// then lint (beside the format check and typecheck), unit + API tests (vitest), build, and browser tests (Playwright).
// Every step runs even when an earlier one failed, so one run reports everything; the exit code is 1
// when any step failed. A failed test is tried once more (the suite starts real servers, tools and
// browsers on a shared 2-core machine, where one late answer is not a fault of the product); a test
// that passed only on its second try is named at the end with its first failure, so it gets mended,
// and one that fails twice fails the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, checkNodeVersion, ensureBuilt, ensureInstalled, log, run } from './lib/workspace.mjs';
import { ensureSystemPackages } from './lib/system-packages.mjs';

checkNodeVersion();
ensureInstalled();
ensureSystemPackages();

const RESULTS = join(ROOT, 'test-results');
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/**
 * The static checks each keep one core busy for minutes (typed lint about three, the format check and the
 * typecheck about three together), so they run as two lanes side by side on the 2-core machine: lint in
 * one, format then typecheck in the other. Each lane's output is held and printed whole when its step
 * ends, so the two never interleave.
 */
const staticLanes = [
  [{ name: 'lint', command: bin('eslint'), args: ['--max-warnings=0', '.'] }],
  [
    { name: 'format', command: bin('prettier'), args: ['--check', '--log-level=warn', '.'] },
    { name: 'typecheck', command: process.execPath, args: ['scripts/typecheck.mjs'] },
  ],
];

/** Runs one check with its output held; resolves to its outcome. */
function runHeld(check) {
  return new Promise((resolve) => {
    const started = Date.now();
    const output = [];
    const child = spawn(check.command, check.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const end = (code) => {
      log(`── ${check.name}`);
      process.stdout.write(Buffer.concat(output));
      resolve({ name: check.name, ok: code === 0, seconds: (Date.now() - started) / 1000 });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${String(error)}\n`));
      end(1);
    });
    child.on('close', end);
  });
}

async function runLane(lane) {
  const done = [];
  for (const check of lane) done.push(await runHeld(check));
  return done;
}

const outcomes = (await Promise.all(staticLanes.map(runLane))).flat();

const steps = [
  {
    name: 'unit and API tests',
    run: () =>
      run(bin('vitest'), [
        'run',
        '--retry=1',
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
      run(bin('playwright'), ['test', '--retries=1'], {
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: join(RESULTS, 'e2e.json') },
      }),
  },
];

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

/**
 * The tests that failed, and those that passed only on their second try, by name with the first lines
 * of the (first) failure, from the runners' reports. CI keeps only the end of what a run prints, so the
 * names must be there, not only in the runners' output far above.
 */
function testOutcomes() {
  const failed = [];
  const flaky = [];
  const firstLines = (text) =>
    String(text ?? '')
      .split('\n')
      .slice(0, 6)
      .join('\n      ');
  const vitestFile = join(RESULTS, 'vitest.json');
  if (existsSync(vitestFile)) {
    for (const file of JSON.parse(readFileSync(vitestFile, 'utf8')).testResults ?? []) {
      const path = relative(ROOT, file.name);
      let anyFailed = false;
      for (const test of file.assertionResults ?? []) {
        const line = `${path} › ${test.fullName}\n      ${firstLines(test.failureMessages?.[0])}`;
        if (test.status === 'failed') {
          anyFailed = true;
          failed.push(line);
          // A test that passed on its retry keeps the failure of its first try.
        } else if (test.status === 'passed' && (test.failureMessages?.length ?? 0) > 0) flaky.push(line);
      }
      // A file that failed before any test ran (an import error, a failed beforeAll) has no failed test.
      if (!anyFailed && file.status === 'failed') failed.push(`${path}\n      ${firstLines(file.message)}`);
    }
  }
  const e2eFile = join(RESULTS, 'e2e.json');
  if (existsSync(e2eFile)) {
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          const list = test.status === 'unexpected' ? failed : test.status === 'flaky' ? flaky : null;
          if (list === null) continue;
          const error = test.results?.find((r) => r.error !== undefined)?.error?.message;
          list.push(
            `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}\n      ${firstLines(error)}`,
          );
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of JSON.parse(readFileSync(e2eFile, 'utf8')).suites ?? []) walk(suite, []);
  }
  return { failed, flaky };
}

/** Prints a list of tests under its heading, at most 30 of them. */
function printTests(heading, tests) {
  if (tests.length === 0) return;
  log(`── ${heading}`);
  for (const line of tests.slice(0, 30)) process.stdout.write(`  ${line}\n`);
  if (tests.length > 30) process.stdout.write(`  … and ${tests.length - 30} more\n`);
}

log('── summary');
for (const outcome of outcomes) {
  log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.name} (${outcome.seconds.toFixed(1)} s)`);
}
const outcomesOfTests = testOutcomes();
printTests('passed only on a second try (flaky: mend them)', outcomesOfTests.flaky);
printTests('failed tests', outcomesOfTests.failed);
const failedSteps = outcomes.filter((o) => !o.ok).length;
const total = counts();
// A failed step without failed tests (lint, typecheck, build) still counts as a failure.
const failed = total.failed + (failedSteps > 0 && total.failed === 0 ? failedSteps : 0);
const retried = outcomesOfTests.flaky.length > 0 ? ` (${outcomesOfTests.flaky.length} on a second try)` : '';
process.stdout.write(
  `\nTests: ${total.passed} passed${retried}, ${failed} failed, ${total.skipped} skipped\n`,
);
process.exit(failedSteps > 0 ? 1 : 0);
