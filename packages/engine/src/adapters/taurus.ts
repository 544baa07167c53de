import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DriverContext, ToolDriver } from './driver';
import { JtlReader } from './jtl';
import { SampleAggregator } from './samples';
import { FileTail } from './tail';

/**
 * Taurus (`bzt`) with its default JMeter executor writes every sample to `kpi.jtl` in its artifacts
 * directory: a JMeter CSV JTL with field names (timeStamp, elapsed, label, responseCode,
 * responseMessage, threadName, success, bytes, grpThreads, allThreads, Latency, Hostname, Connect —
 * its KPI writer saves no failure message and no sent bytes). It is read as JMeter's JTL: exact.
 */

export const TAURUS_ARTIFACTS = 'artifacts';
export const TAURUS_KPI = 'kpi.jtl';

export function taurusDriver(ctx: DriverContext): ToolDriver {
  const notes: string[] = [
    "Taurus's kpi.jtl holds no failure messages: a failed assertion shows the response code and message.",
  ];
  const reader = new JtlReader(ctx.matcher);
  const artifacts = join(ctx.dir, TAURUS_ARTIFACTS);
  let tail: FileTail | undefined;
  const agg = new SampleAggregator(ctx.steps, ctx.emit, {
    users: ctx.users,
    durationS: ctx.durationS,
    settleMs: ctx.settleMs,
    flows: ctx.flows,
    wholeMilliseconds: true,
  });
  let noted = false;

  /** kpi.jtl, or the first kpi*.jtl Taurus made when one existed already. */
  const findKpi = async (): Promise<FileTail | undefined> => {
    try {
      const names = await readdir(artifacts);
      const name = names.includes(TAURUS_KPI) ? TAURUS_KPI : names.sort().find((n) => /^kpi.*\.jtl$/.test(n));
      return name ? new FileTail(join(artifacts, name)) : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    exact: true,
    source: 'taurus kpi.jtl',
    notes,
    logFiles: [join(TAURUS_ARTIFACTS, 'bzt.log'), join(TAURUS_ARTIFACTS, 'jmeter.log')],
    args() {
      return [
        ctx.scriptFile,
        '-o',
        `settings.artifacts-dir=${artifacts}`,
        // A load profile is the script's own ramp-up and hold (docs/adr/0027-load-profiles.md "Runs in the tools").
        ...(ctx.plan.load_profile === undefined
          ? [
              '-o',
              `execution.0.concurrency=${ctx.users}`,
              '-o',
              `execution.0.hold-for=${ctx.durationS}s`,
              '-o',
              'execution.0.ramp-up=0s',
            ]
          : []),
        '-o',
        'modules.console.disable=true',
        '-o',
        'settings.check-updates=false',
        '-q',
      ];
    },
    async poll(now, final) {
      tail ??= await findKpi();
      if (tail) for (const s of reader.feed(await tail.read())) agg.add(s);
      if (!noted && reader.fields.length > 0) {
        noted = true;
        if (!reader.fields.includes('sentBytes'))
          notes.push("Taurus's kpi.jtl holds no sent bytes: bytes_sent is 0.");
      }
      if (final) {
        for (const s of reader.end()) agg.add(s);
        agg.finish();
      } else agg.tick(now);
    },
    requestStop(proc) {
      // bzt's graceful stop on Ctrl-C: it shuts JMeter down and post-processes the results.
      proc.signal('SIGINT');
    },
    recorded: () => agg.count + Object.values(agg.unmatched).reduce((a, b) => a + b, 0),
    result: () => agg.result(),
    close: async () => {
      await tail?.close();
    },
  };
}
