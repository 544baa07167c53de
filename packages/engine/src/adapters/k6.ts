import { join } from 'node:path';
import type { ErrorKind } from '../metrics/types';
import type { DriverContext, ToolDriver } from './driver';
import { httpErrorSample } from '../executor/http-error';
import { SampleAggregator, type ToolSample } from './samples';
import type { StepMatcher } from './steps';
import { FileTail } from './tail';

/**
 * k6's JSON output (`k6 run --out json=file.json`), one JSON object per line:
 *   {"type":"Metric","data":{"type":"trend","contains":"time",...},"metric":"http_req_duration"}
 *   {"type":"Point","data":{"time":"2024-05-09T14:34:45.239531499+02:00","value":459.86,
 *     "tags":{"name":"1. Login","method":"POST","status":"200","url":"…","group":"::1. Login",…}},
 *    "metric":"http_req_duration"}
 * Every HTTP request gives one http_req_duration point (ms; k6 stamps it with the request's end, and
 * measures sending + waiting + receiving, without DNS lookup and connecting), so counts and latency
 * figures are exact. The generated script adds each request's verdict to the `aqa_errors` rate
 * (1 = failed by the plan's rules, including assertions) right after it: that verdict is paired with
 * the step's oldest undecided request. `vus` gives the active users; `data_sent`/`data_received`
 * give the bytes of the whole run (k6 does not split them by request); `checks` are counted.
 */

export const K6_OUTPUT = 'k6.json';
/** The Rate the generated k6 script adds every request's pass (0) / fail (1) to. */
export const K6_ERROR_METRIC = 'aqa_errors';

interface K6Line {
  type?: string;
  metric?: string;
  data?: { time?: string; value?: number; tags?: Record<string, string> | null };
}

/** Epoch ms (with fractions) of an RFC 3339 time with up to nanoseconds, e.g. "2017-05-09T14:34:45.625742514+02:00". */
export function parseK6Time(text: string): number {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/.exec(text.trim());
  if (!m) return Date.parse(text);
  const zone =
    !m[3] || m[3] === 'Z' ? 'Z' : m[3].includes(':') ? m[3] : `${m[3].slice(0, 3)}:${m[3].slice(3)}`;
  const whole = Date.parse(`${m[1]}${zone}`);
  const fraction = m[2] ? Number(`0.${m[2]}`) * 1000 : 0;
  return whole + fraction;
}

/** Why a failed k6 request failed: its status, else k6's error_code (documented ranges). */
export function k6ErrorKind(status: number, errorCode: number, error = ''): ErrorKind {
  if (status >= 400) return 'http_status';
  if (errorCode === 1050 || errorCode === 1211 || /timeout/i.test(error)) return 'timeout';
  if (errorCode >= 1100 && errorCode < 1200) return 'dns';
  if (errorCode >= 1200 && errorCode < 1300) return 'connect';
  if (errorCode >= 1300 && errorCode < 1400) return 'tls';
  return 'other';
}

function lastGroup(group: string | undefined): string {
  if (!group) return '';
  const i = group.lastIndexOf('::');
  return i >= 0 ? group.slice(i + 2) : group;
}

export interface K6ReaderOptions {
  /** The Rate metric holding each request's verdict (default aqa_errors); '' to judge by HTTP status alone. */
  errorMetric?: string;
}

/** Reads k6 JSON lines (incrementally) into a SampleAggregator. */
export class K6JsonReader {
  private partial = '';
  private readonly pending = new Map<number, ToolSample[]>();
  /** Failed verdicts that came before their request, by step. */
  private readonly early = new Map<number, number>();
  private readonly errorMetric: string;
  readonly checks = { passes: 0, fails: 0 };
  readonly metrics = new Set<string>();
  badLines = 0;
  points = 0;

  constructor(
    private readonly matcher: StepMatcher,
    private readonly agg: SampleAggregator,
    options: K6ReaderOptions = {},
  ) {
    this.errorMetric = options.errorMetric ?? K6_ERROR_METRIC;
  }

  feed(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  /** The last line (when the file did not end with a newline), and every request still undecided. */
  end(): void {
    if (this.partial.trim()) this.line(this.partial);
    this.partial = '';
    this.commitPending(Infinity);
  }

  /** Commits undecided requests that ended before `beforeMs` with their HTTP verdict. */
  commitPending(beforeMs: number): void {
    for (const [step, list] of this.pending) {
      while (list.length > 0 && list[0]!.startMs + list[0]!.elapsedMs < beforeMs) this.agg.add(list.shift()!);
      if (list.length === 0) this.pending.delete(step);
    }
  }

  private line(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    let obj: K6Line;
    try {
      obj = JSON.parse(text) as K6Line;
    } catch {
      this.badLines++;
      return;
    }
    const metric = obj.metric ?? '';
    if (obj.type === 'Metric') {
      this.metrics.add(metric);
      return;
    }
    if (obj.type !== 'Point' || !obj.data) return;
    this.points++;
    const time = parseK6Time(obj.data.time ?? '');
    const value = Number(obj.data.value);
    if (!Number.isFinite(time) || !Number.isFinite(value)) {
      this.badLines++;
      return;
    }
    const tags = obj.data.tags ?? {};
    switch (metric) {
      case 'http_req_duration':
        this.request(time, value, tags);
        break;
      case 'vus':
        this.agg.setActiveUsers(time, value);
        break;
      case 'data_sent':
        this.agg.addRunBytes(time, value, 0);
        break;
      case 'data_received':
        this.agg.addRunBytes(time, 0, value);
        break;
      case 'checks':
        if (value !== 0) this.checks.passes++;
        else this.checks.fails++;
        break;
      default:
        if (this.errorMetric && metric === this.errorMetric) this.verdict(tags, value !== 0);
    }
  }

  private request(time: number, durationMs: number, tags: Record<string, string>): void {
    const label = tags.name ?? tags.url ?? '';
    const step = this.matcher.match(label);
    const status = Number(tags.status ?? 0) || 0;
    const errorCode = Number(tags.error_code ?? 0) || 0;
    const failed = status === 0 || status >= 400 || errorCode !== 0;
    const sample: ToolSample = {
      step,
      label,
      startMs: time - durationMs,
      elapsedMs: durationMs,
      ok: !failed,
      bytesSent: 0,
      bytesReceived: 0,
    };
    if (failed) {
      sample.kind = k6ErrorKind(status, errorCode, tags.error ?? '');
      sample.message =
        status >= 400
          ? // k6's JSON output has no reason phrase or body: the standard reason (docs/reference/02-running.md §3 "Errors by kind").
            httpErrorSample(status, undefined, undefined, `${tags.method ?? ''} ${tags.url ?? ''}`.trim())
          : tags.error || `error_code ${errorCode || 'unknown'}`;
    }
    if (step < 0 || !this.errorMetric) {
      this.agg.add(sample);
      return;
    }
    const early = this.early.get(step) ?? 0;
    if (early > 0) {
      this.early.set(step, early - 1);
      this.fail(sample);
      this.agg.add(sample);
      return;
    }
    const list = this.pending.get(step) ?? [];
    list.push(sample);
    this.pending.set(step, list);
  }

  private fail(sample: ToolSample): void {
    if (!sample.ok) return;
    sample.ok = false;
    sample.kind = 'assertion';
    sample.message = `assertion failed (${this.errorMetric})`;
  }

  private verdict(tags: Record<string, string>, failed: boolean): void {
    const step = this.matcher.match(lastGroup(tags.group));
    if (step < 0) return;
    const sample = this.pending.get(step)?.shift();
    if (!sample) {
      if (failed) this.early.set(step, (this.early.get(step) ?? 0) + 1);
      return;
    }
    if (failed) this.fail(sample);
    this.agg.add(sample);
  }
}

/** k6 run with `--out json`, the JSON lines followed while they grow. */
export function k6Driver(ctx: DriverContext): ToolDriver {
  const notes: string[] = [
    "k6's http_req_duration is sending + waiting + receiving: it leaves out DNS lookup and connecting.",
    'k6 reports sent and received bytes for the whole run only: per-API bytes are 0.',
  ];
  const agg = new SampleAggregator(ctx.steps, ctx.emit, {
    users: ctx.users,
    durationS: ctx.durationS,
    settleMs: ctx.settleMs,
    flows: ctx.flows,
  });
  const reader = new K6JsonReader(ctx.matcher, agg);
  const tail = new FileTail(join(ctx.dir, K6_OUTPUT));
  let checks: { passes: number; fails: number } | undefined;
  return {
    exact: true,
    source: 'k6 json output',
    notes,
    logFiles: [],
    args() {
      return [
        'run',
        '--out',
        `json=${K6_OUTPUT}`,
        // A load profile is the script's own scenario (docs/adr/0027-load-profiles.md "Runs in the tools"):
        // --vus and --duration would replace it.
        ...(ctx.plan.load_profile === undefined
          ? ['--vus', String(ctx.users), '--duration', `${ctx.durationS}s`]
          : []),
        '--quiet',
        '--no-usage-report',
        ctx.scriptFile,
      ];
    },
    async poll(now, final) {
      reader.feed(await tail.read());
      if (final) {
        reader.end();
        agg.finish();
        checks = { ...reader.checks };
        if (reader.badLines > 0)
          notes.push(`${reader.badLines} lines of the k6 JSON output could not be read.`);
      } else {
        // A verdict that never came (the request was not one of the plan's): judged by its status.
        reader.commitPending(now - 5000);
        agg.tick(now);
      }
    },
    requestStop(proc) {
      // k6 stops gracefully on SIGINT (a second one aborts).
      proc.signal('SIGINT');
    },
    recorded: () => agg.count + Object.values(agg.unmatched).reduce((a, b) => a + b, 0),
    result: () => ({ ...agg.result(), ...(checks ? { checks } : {}) }),
    close: () => tail.close(),
  };
}
