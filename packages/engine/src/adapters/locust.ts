import { readFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverContext, DriverResult, ToolDriver } from './driver';
import {
  LOCUST_MASTER_CONFIG,
  LOCUST_STOP_FILE,
  LOCUST_WORKERS_FILE,
  parseLocustWorkers,
} from './locust-distributed';
import { FINAL_JSON, LOCUST_PREFIX, LOCUST_WRAPPER, locustWrapper } from './locust-files';
import { parseLocustFailures, type FinalJson } from './locust-output';
import { LocustResults } from './locust-results';
import { FileTail } from './tail';

/**
 * Locust 2.x headless with `--csv PREFIX --csv-full-history`:
 *   PREFIX_stats_history.csv  one row per request name and one "Aggregated" row every second, with
 *                             cumulative counts and Locust's *current* percentiles (its ~10 s window);
 *   PREFIX_stats.csv          totals per name, with Locust's percentiles over the whole run;
 *   PREFIX_failures.csv       failures by name and error message.
 * Locust keeps no raw samples, only response times rounded to 2 significant digits (1 ms below 100
 * ms, 10 ms below 1 s, 100 ms below 10 s), so latency figures are Locust's own (`exact: false`);
 * request and failure counts are exact.
 *
 * The generated Locust file runs through a small wrapper (aqa_locustfile.py) that only (1) makes
 * Locust flush its CSV files every second instead of every 10 s, so the run can be followed live,
 * and (2) after the users stopped, writes the stats and failures CSVs once more with Locust's own
 * writer (its last periodic write can be up to a second old) plus PREFIX_aqa_final.json with the
 * exact totals, first/last request times and Locust's response-time distribution.
 *
 * By concern: locust-files.ts writes the wrapper (and a load agent's worker files), this file starts
 * and stops Locust and follows its files, locust-output.ts reads them, locust-results.ts turns them
 * into snapshots and the result.
 */

async function readOr(path: string, fallback: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return fallback;
  }
}

/** Beyond the run and the wait for the workers' last reports, Locust's own run time quits the master. */
const MASTER_BACKSTOP_S = 30;

/** Locust headless, its stats history followed while it grows. */
export function locustDriver(ctx: DriverContext): ToolDriver {
  const notes: string[] = [
    "Locust keeps no raw samples: response-time percentiles are Locust's own (rounded to 1 ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s); per second they cover Locust's last ~10 s, and a second's min is the minimum so far.",
    'Locust does not record sent bytes: bytes_sent is 0.',
  ];
  const results = new LocustResults(ctx);
  const historyPath = join(ctx.dir, `${LOCUST_PREFIX}_stats_history.csv`);
  const tail = new FileTail(historyPath);
  let failuresText = '';
  let finished: DriverResult | undefined;
  writeFileSync(join(ctx.dir, LOCUST_WRAPPER), locustWrapper(ctx.scriptFile));
  const master = ctx.locustMaster;
  if (master !== undefined) {
    // The master's wrapper ends the run itself (locust-distributed.ts): Locust's own -t would not wait
    // for the workers' last reports.
    writeFileSync(
      join(ctx.dir, LOCUST_MASTER_CONFIG),
      JSON.stringify({ run_time_s: ctx.durationS, final_wait_s: master.finalWaitS }),
    );
  }
  const workersPath = join(ctx.dir, LOCUST_WORKERS_FILE);
  let workersText = '';
  const readWorkers = async (): Promise<void> => {
    if (master?.onWorkers === undefined) return;
    const text = await readOr(workersPath, workersText);
    if (text === workersText) return;
    const workers = parseLocustWorkers(text);
    if (workers === null) return;
    workersText = text;
    master.onWorkers(workers);
  };

  return {
    exact: false,
    source: 'locust stats history',
    notes,
    logFiles: [],
    args() {
      const mode =
        master === undefined
          ? ['-t', `${ctx.durationS}s`]
          : [
              // Only a backstop: the wrapper ends the run at durationS (see above).
              '-t',
              `${ctx.durationS + master.finalWaitS + MASTER_BACKSTOP_S}s`,
              '--master',
              '--master-bind-host',
              master.bindHost,
              '--master-bind-port',
              String(master.bindPort),
              '--expect-workers',
              String(master.workers),
              '--expect-workers-max-wait',
              String(master.workersWaitS),
            ];
      // A load profile is the script's LoadTestShape, which ends the run after its stages and sets the
      // graceful stop (docs/adr/0027-load-profiles.md "Runs in the tools"): Locust refuses -t beside a
      // shape, and -u and -r do not apply.
      const shaped = ctx.plan.load_profile !== undefined && master === undefined;
      return [
        '-f',
        LOCUST_WRAPPER,
        '--headless',
        ...(shaped ? [] : ['-u', String(ctx.users), '-r', String(ctx.users), ...mode]),
        ...(ctx.host ? ['--host', ctx.host] : []),
        '--csv',
        LOCUST_PREFIX,
        '--csv-full-history',
        '--only-summary',
        // Failed requests are data, not a failed run.
        '--exit-code-on-error',
        '0',
        // At the end users finish the iteration they are in (up to 3 s), so what the target received is counted.
        ...(shaped ? [] : ['--stop-timeout', '3']),
      ];
    },
    async poll(_now, final) {
      await readWorkers();
      const text = await tail.read();
      if (text) {
        failuresText = await readOr(join(ctx.dir, `${LOCUST_PREFIX}_failures.csv`), failuresText);
        const statsText = await readOr(join(ctx.dir, `${LOCUST_PREFIX}_stats.csv`), '');
        results.feedHistory(
          text,
          () => parseLocustFailures(failuresText, ctx.matcher),
          () => statsText,
        );
      }
      if (!final) return;
      const jsonText = await readOr(join(ctx.dir, FINAL_JSON), '');
      let json: FinalJson | undefined;
      try {
        json = jsonText ? (JSON.parse(jsonText) as FinalJson) : undefined;
      } catch {
        json = undefined;
      }
      const stats = await readOr(join(ctx.dir, `${LOCUST_PREFIX}_stats.csv`), '');
      const failures = await readOr(join(ctx.dir, `${LOCUST_PREFIX}_failures.csv`), '');
      const r = results.finish(json, stats, failures);
      notes.push(...r.notes);
      const { notes: _n, ...rest } = r;
      finished = rest;
    },
    requestStop(proc) {
      if (master !== undefined) {
        // The master's wrapper stops its workers and waits for their last reports, then quits.
        writeFileSync(join(ctx.dir, LOCUST_STOP_FILE), 'stop\n');
        return;
      }
      // Locust's SIGTERM handler: users stop (up to --stop-timeout), stats are printed and written.
      proc.signal('SIGTERM');
    },
    recorded: () =>
      finished
        ? finished.summary.total_requests + Object.values(finished.unmatched).reduce((a, b) => a + b, 0)
        : 0,
    result: () => {
      if (!finished) throw new Error('locust results were not read');
      return finished;
    },
    close: () => tail.close(),
  };
}
