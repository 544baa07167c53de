import { createSocket } from 'node:dgram';
import { JMETER_ERROR_BODY_VARIABLE } from '@aqa/converters';
import { join } from 'node:path';
import type { DriverContext, ToolDriver } from './driver';
import { JtlReader } from './jtl';
import type { ToolProcess } from './process';
import { SampleAggregator } from './samples';
import { FileTail } from './tail';

export const JTL_FILE = 'out.jtl';
export const JMETER_LOG = 'jmeter.log';

/**
 * The save-service properties that make `-l` write a CSV JTL with the fields we read, flushed after
 * every sample so it can be followed live. sentBytes exists from JMeter 3.1 on (2.13 ignores it);
 * subresults are off so that one sampler execution is one row (the generated plan follows no redirect
 * and fetches no embedded resource, docs/adr/0015-target-guard.md "Redirects", so a sample has none).
 */
export const JMETER_JTL_PROPERTIES: Readonly<Record<string, string>> = {
  'jmeter.save.saveservice.output_format': 'csv',
  'jmeter.save.saveservice.print_field_names': 'true',
  'jmeter.save.saveservice.autoflush': 'true',
  'jmeter.save.saveservice.default_delimiter': ',',
  'jmeter.save.saveservice.timestamp_format': 'ms',
  'sampleresult.timestamp.start': 'true',
  'jmeter.save.saveservice.time': 'true',
  'jmeter.save.saveservice.label': 'true',
  'jmeter.save.saveservice.response_code': 'true',
  'jmeter.save.saveservice.response_message': 'true',
  'jmeter.save.saveservice.successful': 'true',
  'jmeter.save.saveservice.thread_name': 'true',
  'jmeter.save.saveservice.assertion_results_failure_message': 'true',
  'jmeter.save.saveservice.bytes': 'true',
  'jmeter.save.saveservice.sent_bytes': 'true',
  'jmeter.save.saveservice.thread_counts': 'true',
  'jmeter.save.saveservice.latency': 'true',
  'jmeter.save.saveservice.connect_time': 'true',
  'jmeter.save.saveservice.subresults': 'false',
  // The start of an error answer's body, which the run's JMX keeps in this variable (JmxOptions.errorBodies;
  // docs/reference/02-running.md §3 "Errors by kind").
  sample_variables: JMETER_ERROR_BODY_VARIABLE,
};

/** JMeter's non-GUI mode: `-n -t plan.jmx -l out.jtl`, the JTL tailed while it grows. */
export function jmeterDriver(ctx: DriverContext): ToolDriver {
  const notes: string[] = [];
  const reader = new JtlReader(ctx.matcher);
  const tail = new FileTail(join(ctx.dir, JTL_FILE));
  const profile = ctx.plan.load_profile;
  const agg = new SampleAggregator(ctx.steps, ctx.emit, {
    users: ctx.users,
    durationS: ctx.durationS,
    settleMs: ctx.settleMs,
    wholeMilliseconds: true,
    flows: ctx.flows,
    // A profile's threads start by its line (docs/adr/0027-load-profiles.md "Runs in the tools"): until the
    // first sample reports them, the threads JMeter started at once, the profile's start.
    ...(profile === undefined ? {} : { initialActiveUsers: profile.model === 'users' ? profile.start : 0 }),
  });
  let shutdownPort: number | undefined;
  let checkedFields = false;

  const addNotes = (): void => {
    if (checkedFields || reader.fields.length === 0) return;
    checkedFields = true;
    if (!reader.fields.includes('sentBytes')) {
      notes.push('This JMeter (before 3.1) does not record sent bytes: bytes_sent is 0.');
    }
  };

  return {
    exact: true,
    source: 'jmeter jtl',
    notes,
    logFiles: [JMETER_LOG],
    args() {
      return [
        '-n',
        '-t',
        ctx.scriptFile,
        '-l',
        JTL_FILE,
        '-j',
        JMETER_LOG,
        `-Jaqa.users=${ctx.users}`,
        `-Jaqa.duration=${ctx.durationS}`,
        ...Object.entries(JMETER_JTL_PROPERTIES).map(([k, v]) => `-J${k}=${v}`),
      ];
    },
    onLine(line) {
      // "Waiting for possible shutdown message on port 4445" (2.x), "... Shutdown/StopTestNow/HeapDump/ThreadDump message on port 4445" (5.x)
      const m = /message on port (\d+)/.exec(line);
      if (m) shutdownPort = Number(m[1]);
      // "Starting the test @ Thu Dec 03 10:20:08 UTC 2026 (1796293208000)": a profile's line is timed from
      // the test's start, not from the first sample, which comes when its first user is due
      // (docs/adr/0027-load-profiles.md "Runs in the tools").
      const start = /^Starting the test\b.* @ .*\((\d{10,})\)\s*$/.exec(line);
      if (start && profile !== undefined) agg.setOrigin(Number(start[1]));
    },
    async poll(now, final) {
      const text = await tail.read();
      for (const s of reader.feed(text)) agg.add(s);
      addNotes();
      if (final) {
        for (const s of reader.end()) agg.add(s);
        agg.finish();
        if (reader.badRows > 0) notes.push(`${reader.badRows} JTL rows could not be read and are left out.`);
      } else agg.tick(now);
    },
    requestStop(proc: ToolProcess) {
      // JMeter's own graceful stop: the "Shutdown" message on its UDP port (what shutdown.sh sends):
      // threads end after their current sample. Without a port, SIGTERM (the caller escalates).
      if (shutdownPort === undefined) {
        proc.signal('SIGTERM');
        return;
      }
      const socket = createSocket('udp4');
      socket.on('error', () => socket.close());
      socket.send('Shutdown', shutdownPort, '127.0.0.1', () => socket.close());
    },
    recorded: () => agg.count + Object.values(agg.unmatched).reduce((a, b) => a + b, 0),
    result: () => agg.result(),
    close: () => tail.close(),
  };
}
