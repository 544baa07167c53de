import { readFile } from 'node:fs/promises';
import { generateScript } from '@aqa/converters';
import { latencyInRange, withPercentilesInRange, type PerfPlan } from '@aqa/plan';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpErrorSample } from '../executor/http-error';
import { countsIndex, Histogram, toRecordable } from '../metrics/histogram';
import { ERROR_KINDS, MAX_ERROR_SAMPLES, type ErrorKind } from '../metrics/types';
import type {
  ApiResultRow,
  ErrorCounts,
  ErrorTally,
  IntervalFigures,
  LatencySummary,
  RunSnapshot,
  RunSummary,
  SeriesPoint,
  StepSnapshot,
} from '../types';
import { CsvStream, headerIndex, parseCsvText } from './csv';
import type { DriverContext, DriverResult, ToolDriver } from './driver';
import {
  LOCUST_DISTRIBUTED_PY,
  LOCUST_MASTER_CONFIG,
  LOCUST_STOP_FILE,
  LOCUST_WORKERS_FILE,
  parseLocustWorkers,
} from './locust-distributed';
import type { StepMatcher } from './steps';
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
 */

export const LOCUST_PREFIX = 'aqa';
export const LOCUST_WRAPPER = 'aqa_locustfile.py';
const FINAL_JSON = `${LOCUST_PREFIX}_aqa_final.json`;

/** The wrapper locustfile: loads the generated one and completes Locust's CSV output. */
export function locustWrapper(planFile: string, prefix = LOCUST_PREFIX): string {
  return `# AnybodyQA: runs ${planFile} and makes Locust's CSV results live and complete.
import csv
import importlib.util
import json
import os
import sys
import time

import locust.stats
from locust import events

PLAN_FILE = ${JSON.stringify(planFile)}
CSV_PREFIX = ${JSON.stringify(prefix)}

# Locust flushes its CSV files every 10 s; every second lets the run be followed live.
locust.stats.CSV_STATS_FLUSH_INTERVAL_SEC = 0

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("aqa_plan", os.path.join(_here, PLAN_FILE))
_plan = importlib.util.module_from_spec(_spec)
sys.modules["aqa_plan"] = _plan
_spec.loader.exec_module(_plan)
globals().update({k: v for k, v in vars(_plan).items() if not k.startswith("__")})

_aqa_env = []


@events.init.add_listener
def _aqa_init(environment, **_kwargs):
    _aqa_env.append(environment)


def _aqa_entry(e):
    return {
        "method": e.method or "",
        "name": e.name,
        "num_requests": e.num_requests,
        "num_failures": e.num_failures,
        "total_response_time": e.total_response_time,
        "min_response_time": e.min_response_time or 0,
        "max_response_time": e.max_response_time,
        "total_content_length": e.total_content_length,
        "start_time": e.start_time,
        "last_request_timestamp": e.last_request_timestamp,
        "response_times": [[k, v] for k, v in e.response_times.items()],
    }


@events.quit.add_listener
def _aqa_final(**_kwargs):
    # The users have stopped: write the final totals (Locust's last periodic write may be a second old).
    if not _aqa_env:
        return
    env = _aqa_env[0]
    try:
        writer = locust.stats.StatsCSV(env, locust.stats.PERCENTILES_TO_REPORT)
        with open(CSV_PREFIX + "_stats.csv", "w", newline="") as f:
            writer.requests_csv(csv.writer(f))
        with open(CSV_PREFIX + "_failures.csv", "w", newline="") as f:
            writer.failures_csv(csv.writer(f))
        data = {
            "time": time.time(),
            "entries": [_aqa_entry(e) for e in env.stats.entries.values()],
            "total": _aqa_entry(env.stats.total),
        }
        tmp = CSV_PREFIX + "_aqa_final.json.tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, CSV_PREFIX + "_aqa_final.json")
    except Exception as error:  # keep Locust's own exit path
        sys.stderr.write("aqa: the final results were not written: %r\\n" % (error,))
${LOCUST_DISTRIBUTED_PY}`;
}

/** A file of a Locust run, as a load agent writes it into its worker's folder. */
export interface LocustFile {
  name: string;
  content: string;
}

/**
 * What a Locust worker on a load agent runs (docs/adr/0021-load-agents.md "Locust master/worker"): the
 * script generated for the plan by the same generator as the master's, so both have the same user
 * class, and the wrapper; `locustfile` is the one to give `-f`.
 */
export function locustWorkerFiles(plan: PerfPlan): { files: LocustFile[]; locustfile: string } {
  const script = generateScript(plan, 'locust');
  const files: LocustFile[] = script.files.map((f) => ({ name: f.name, content: f.content }));
  files.push({ name: LOCUST_WRAPPER, content: locustWrapper(files[0]!.name) });
  return { files, locustfile: LOCUST_WRAPPER };
}

/** Why a Locust request failed, from its error text. */
export function locustErrorKind(error: string): ErrorKind {
  if (/^HTTP \d{3}\b/.test(error)) return 'http_status';
  if (/HTTPError\(['"]?\d{3}\b|\b[45]\d\d (Client|Server) Error/.test(error)) return 'http_status';
  if (/CatchResponseError|Assertion failed/.test(error)) return 'assertion';
  if (
    /NameResolution|getaddrinfo|Name or service not known|nodename nor servname|Failed to resolve|Temporary failure in name resolution/i.test(
      error,
    )
  )
    return 'dns';
  if (/Timeout|timed out/i.test(error)) return 'timeout';
  if (/SSL|CERTIFICATE|TLS/.test(error)) return 'tls';
  if (/Connection|Refused|RemoteDisconnected|reset by peer|Max retries/i.test(error)) return 'connect';
  return 'other';
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const num = (s: string | undefined): number => {
  const v = Number(s);
  return Number.isFinite(v) ? v : 0;
};
const EMPTY_HISTOGRAM = { i: [], c: [], sum: 0, min: 0, max: 0 };

/** One name's cumulative figures in a stats-history row. */
interface HistoryEntry {
  requests: number;
  failures: number;
  avg: number;
  min: number;
  max: number;
  avgSize: number;
  /** Locust's current (last ~10 s) percentiles, ms; 0 when N/A. */
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  p100: number;
}

interface HistoryGroup {
  ts: number;
  users: number;
  /** By step index (matched names merged). */
  steps: Map<number, HistoryEntry>;
  aggregated: HistoryEntry;
}

function mergeEntries(a: HistoryEntry, b: HistoryEntry): HistoryEntry {
  const n = a.requests + b.requests;
  const big = a.requests >= b.requests ? a : b;
  return {
    requests: n,
    failures: a.failures + b.failures,
    avg: n ? (a.avg * a.requests + b.avg * b.requests) / n : 0,
    min:
      Math.min(a.min || Infinity, b.min || Infinity) === Infinity
        ? 0
        : Math.min(a.min || Infinity, b.min || Infinity),
    max: Math.max(a.max, b.max),
    avgSize: n ? (a.avgSize * a.requests + b.avgSize * b.requests) / n : 0,
    p50: big.p50,
    p90: big.p90,
    p95: big.p95,
    p99: big.p99,
    p999: big.p999,
    p100: Math.max(a.p100, b.p100),
  };
}

const ZERO_ENTRY: HistoryEntry = {
  requests: 0,
  failures: 0,
  avg: 0,
  min: 0,
  max: 0,
  avgSize: 0,
  p50: 0,
  p90: 0,
  p95: 0,
  p99: 0,
  p999: 0,
  p100: 0,
};

/** Reads PREFIX_stats_history.csv as it grows: one complete group per Locust write (per second). */
export class LocustHistoryReader {
  private readonly csv = new CsvStream();
  private cols: Map<string, number> | undefined;
  private current: HistoryGroup | undefined;
  readonly unmatched = new Set<string>();

  constructor(private readonly matcher: StepMatcher) {}

  feed(text: string): HistoryGroup[] {
    const out: HistoryGroup[] = [];
    for (const row of this.csv.feed(text)) {
      if (!this.cols) {
        if (row[0] !== 'Timestamp') throw new Error('Locust stats history has no header row');
        this.cols = headerIndex(row);
        continue;
      }
      const c = this.cols;
      const get = (name: string): string | undefined => {
        const i = c.get(name);
        return i === undefined ? undefined : row[i];
      };
      const ts = num(get('Timestamp'));
      const name = get('Name') ?? '';
      const type = get('Type') ?? '';
      const entry: HistoryEntry = {
        requests: num(get('Total Request Count')),
        failures: num(get('Total Failure Count')),
        avg: num(get('Total Average Response Time')),
        min: num(get('Total Min Response Time')),
        max: num(get('Total Max Response Time')),
        avgSize: num(get('Total Average Content Size')),
        p50: num(get('50%')),
        p90: num(get('90%')),
        p95: num(get('95%')),
        p99: num(get('99%')),
        p999: num(get('99.9%')),
        p100: num(get('100%')),
      };
      if (!this.current || this.current.ts !== ts) {
        this.current = { ts, users: 0, steps: new Map(), aggregated: ZERO_ENTRY };
      }
      const g = this.current;
      if (type === '' && name === 'Aggregated') {
        g.aggregated = entry;
        g.users = num(get('User Count'));
        out.push(g);
        this.current = undefined;
      } else {
        const step = this.matcher.match(name);
        if (step < 0) this.unmatched.add(name);
        else g.steps.set(step, g.steps.has(step) ? mergeEntries(g.steps.get(step)!, entry) : entry);
      }
    }
    return out;
  }
}

/**
 * A failure as Locust's failures CSV writes it, in the words a person reads: the message the script gave
 * res.failure() without Locust's CatchResponseError('…') around it ("HTTP 500 Internal Server Error: db
 * timeout"), and Locust's own HTTPError('500 Server Error: … for url: …') as "HTTP 500 … from URL"
 * (docs/reference/02-running.md §3 "Errors by kind").
 */
export function locustErrorText(error: string): string {
  const caught = /^CatchResponseError\((['"])([\s\S]*)\1\)$/.exec(error.trim());
  if (caught) return pythonStringText(caught[2]!);
  const http = /^HTTPError\((['"])(\d{3}) (?:Client|Server) Error: ([\s\S]*?) for url: ([\s\S]*)\1\)$/.exec(
    error.trim(),
  );
  if (http)
    return httpErrorSample(Number(http[2]), pythonStringText(http[3]!), '', pythonStringText(http[4]!));
  return error;
}

/** The text of a Python string literal's inside, as repr() writes it. */
function pythonStringText(inside: string): string {
  return inside.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_all, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[e] ?? e;
  });
}

/** Failures by step and kind, with up to 5 messages, from PREFIX_failures.csv. */
export interface FailureTable {
  byStep: Map<number, { counts: Map<ErrorKind, number>; samples: Map<ErrorKind, string[]> }>;
}

export function parseLocustFailures(text: string, matcher: StepMatcher): FailureTable {
  const rows = parseCsvText(text);
  const table: FailureTable = { byStep: new Map() };
  const header = rows.shift();
  if (!header) return table;
  const c = headerIndex(header);
  for (const row of rows) {
    const name = row[c.get('Name') ?? 1] ?? '';
    const error = locustErrorText(row[c.get('Error') ?? 2] ?? '');
    const occurrences = num(row[c.get('Occurrences') ?? 3]);
    const step = matcher.match(name);
    if (step < 0 || occurrences <= 0) continue;
    let s = table.byStep.get(step);
    if (!s) {
      s = { counts: new Map(), samples: new Map() };
      table.byStep.set(step, s);
    }
    const kind = locustErrorKind(error);
    s.counts.set(kind, (s.counts.get(kind) ?? 0) + occurrences);
    const list = s.samples.get(kind) ?? [];
    if (list.length < MAX_ERROR_SAMPLES && !list.includes(error)) list.push(error.slice(0, 500));
    s.samples.set(kind, list);
  }
  return table;
}

/** One entry of PREFIX_aqa_final.json. */
interface FinalEntry {
  method: string;
  name: string;
  num_requests: number;
  num_failures: number;
  total_response_time: number;
  min_response_time: number;
  max_response_time: number;
  total_content_length: number;
  start_time: number;
  last_request_timestamp: number | null;
  response_times: [number, number][];
}
interface FinalJson {
  time: number;
  entries: FinalEntry[];
  total: FinalEntry;
}

/** A row of PREFIX_stats.csv. */
interface StatsRow {
  type: string;
  name: string;
  requests: number;
  failures: number;
  avg: number;
  min: number;
  max: number;
  avgSize: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
}

export function parseLocustStats(text: string): StatsRow[] {
  const rows = parseCsvText(text);
  const header = rows.shift();
  if (!header) return [];
  const c = headerIndex(header);
  const get = (row: string[], name: string): string | undefined => {
    const i = c.get(name);
    return i === undefined ? undefined : row[i];
  };
  return rows.map((row) => ({
    type: get(row, 'Type') ?? '',
    name: get(row, 'Name') ?? '',
    requests: num(get(row, 'Request Count')),
    failures: num(get(row, 'Failure Count')),
    avg: num(get(row, 'Average Response Time')),
    min: num(get(row, 'Min Response Time')),
    max: num(get(row, 'Max Response Time')),
    avgSize: num(get(row, 'Average Content Size')),
    p50: num(get(row, '50%')),
    p90: num(get(row, '90%')),
    p95: num(get(row, '95%')),
    p99: num(get(row, '99%')),
    p999: num(get(row, '99.9%')),
  }));
}

/** Locust's percentile of a {rounded ms: count} distribution (locust.stats.calculate_response_time_percentile). */
export function locustPercentile(times: Map<number, number>, total: number, percent: number): number {
  const target = total - total * percent;
  let processed = 0;
  for (const t of [...times.keys()].sort((a, b) => b - a)) {
    processed += times.get(t)!;
    if (total - processed <= target) return t;
  }
  return 0;
}

function latency(e: HistoryEntry | undefined, avg: number): LatencySummary {
  if (!e) return { avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, min: 0, max: 0 };
  // Locust's percentiles are rounded; the min is exact (docs/adr/0006-hdr-histograms-merge-exactly.md).
  return latencyInRange({
    avg: round3(avg),
    p50: e.p50,
    p90: e.p90,
    p95: e.p95,
    p99: e.p99,
    p999: e.p999,
    min: round3(e.min),
    max: e.p100 || round3(e.max),
  });
}

/** A locust-driven run: snapshots from the stats history, the result from the final stats. */
export class LocustResults {
  private readonly history: LocustHistoryReader;
  private prev: HistoryGroup | undefined;
  private base: HistoryGroup | undefined;
  /** Failures by step and kind already given to snapshots. */
  private readonly assigned = new Map<number, Map<ErrorKind, number>>();
  readonly series: SeriesPoint[] = [];
  private second = 0;
  private lastElapsed = 0;
  private totals = { requests: 0, successes: 0, failures: 0, bytesSent: 0, bytesReceived: 0 };
  lastUsers = 0;

  constructor(private readonly ctx: Pick<DriverContext, 'steps' | 'matcher' | 'users' | 'emit'>) {
    this.history = new LocustHistoryReader(ctx.matcher);
  }

  get unmatched(): Set<string> {
    return this.history.unmatched;
  }

  /**
   * Feeds stats-history text; emits a snapshot per completed group. `failures`: the failures CSV now;
   * `stats`: the stats CSV now (Locust writes both with the history), whose whole-run percentiles
   * stand in while Locust has no current-window percentiles yet (its first second).
   */
  feedHistory(text: string, failures: () => FailureTable | undefined, stats?: () => string): void {
    const groups = this.history.feed(text);
    if (groups.length === 0) return;
    const table = failures();
    let fallback: Map<number, StatsRow> | undefined;
    this.fallback = (step) => {
      if (!fallback) {
        fallback = new Map();
        for (const r of parseLocustStats(stats?.() ?? '')) {
          const i = r.type === '' && r.name === 'Aggregated' ? -1 : this.ctx.matcher.match(r.name);
          if (i >= 0 || r.name === 'Aggregated')
            fallback.set(i, fallback.has(i) ? mergeStatsRows(fallback.get(i)!, r) : r);
        }
      }
      return fallback.get(step);
    };
    for (const g of groups) this.group(g, table);
    this.fallback = () => undefined;
  }

  /** Whole-run percentiles of a step (-1: the run) from the stats CSV, while the history has none. */
  private fallback: (step: number) => StatsRow | undefined = () => undefined;

  /** A group's entry with Locust's whole-run percentiles when its current window has none yet. */
  private withPercentiles(e: HistoryEntry | undefined, step: number): HistoryEntry | undefined {
    if (!e || e.requests === 0 || e.p50 !== 0 || e.p100 !== 0) return e;
    const r = this.fallback(step);
    if (!r || r.requests === 0) return e;
    return { ...e, p50: r.p50, p90: r.p90, p95: r.p95, p99: r.p99, p999: r.p999, p100: r.max };
  }

  private group(g: HistoryGroup, table: FailureTable | undefined): void {
    this.lastUsers = g.users;
    if (!this.base) {
      // Locust's first write comes before any user ran; if not, a zero baseline a second earlier.
      const empty = [...g.steps.values()].every((e) => e.requests === 0);
      if (empty) {
        this.base = g;
        this.prev = g;
        return;
      }
      this.base = { ts: g.ts - 1, users: 0, steps: new Map(), aggregated: ZERO_ENTRY };
      this.prev = this.base;
    }
    if (g.ts <= this.prev!.ts) return;
    const elapsed = g.ts - this.base.ts;
    this.emitDiff(g, elapsed, table);
    this.prev = g;
  }

  /** Emits the figures between the previous group and `g` (which ends `elapsedS` after the start). */
  private emitDiff(g: HistoryGroup, elapsedS: number, table: FailureTable | undefined): void {
    const prev = this.prev!;
    const intervalS = Math.max(0.001, elapsedS - this.lastElapsed);
    const per = Math.max(intervalS, 1);
    const steps: StepSnapshot[] = this.ctx.steps.map((info, i) => {
      const cur = g.steps.get(i);
      const old = prev.steps.get(i);
      const requests = Math.max(0, (cur?.requests ?? 0) - (old?.requests ?? 0));
      const failures = Math.min(requests, Math.max(0, (cur?.failures ?? 0) - (old?.failures ?? 0)));
      const sum = (cur ? cur.avg * cur.requests : 0) - (old ? old.avg * old.requests : 0);
      const bytes = Math.max(
        0,
        Math.round((cur ? cur.avgSize * cur.requests : 0) - (old ? old.avgSize * old.requests : 0)),
      );
      const errors = this.assignErrors(i, failures, table);
      const figures: IntervalFigures = {
        requests,
        successes: requests - failures,
        failures,
        errors,
        bytesSent: 0,
        bytesReceived: bytes,
        requestsPerSecond: round2(requests / per),
        errorRate: requests ? round2((failures / requests) * 100) : 0,
        bandwidthKBs: round2(bytes / 1024 / per),
        latency: requests ? latency(this.withPercentiles(cur, i), sum / requests) : latency(undefined, 0),
        histogram: EMPTY_HISTOGRAM,
      };
      return { step: i, label: info.label, ...figures };
    });
    const requests = steps.reduce((a, s) => a + s.requests, 0);
    const failures = steps.reduce((a, s) => a + s.failures, 0);
    const bytes = steps.reduce((a, s) => a + s.bytesReceived, 0);
    const sum = steps.reduce((a, s) => a + s.latency.avg * s.requests, 0);
    const errors: ErrorCounts = {};
    for (const s of steps)
      for (const [k, v] of Object.entries(s.errors) as [ErrorKind, number][])
        errors[k] = (errors[k] ?? 0) + v;
    this.totals = {
      requests: this.totals.requests + requests,
      successes: this.totals.successes + requests - failures,
      failures: this.totals.failures + failures,
      bytesSent: 0,
      bytesReceived: this.totals.bytesReceived + bytes,
    };
    this.second++;
    this.lastElapsed = elapsedS;
    const whole: IntervalFigures = {
      requests,
      successes: requests - failures,
      failures,
      errors,
      bytesSent: 0,
      bytesReceived: bytes,
      requestsPerSecond: round2(requests / per),
      errorRate: requests ? round2((failures / requests) * 100) : 0,
      bandwidthKBs: round2(bytes / 1024 / per),
      latency: requests
        ? latency(this.withPercentiles(g.aggregated, -1), sum / requests)
        : latency(undefined, 0),
      histogram: EMPTY_HISTOGRAM,
    };
    const snap: RunSnapshot = {
      ...whole,
      second: this.second,
      elapsedS: round3(elapsedS),
      intervalS: round3(intervalS),
      activeUsers: g.users,
      generatorBusy: 0,
      steps,
      totals: { ...this.totals },
    };
    this.series.push({
      second: snap.second,
      elapsedS: snap.elapsedS,
      activeUsers: snap.activeUsers,
      generatorBusy: 0,
      requests,
      failures,
      requestsPerSecond: whole.requestsPerSecond,
      errorRate: whole.errorRate,
      bandwidthKBs: whole.bandwidthKBs,
      latency: whole.latency,
      steps: steps.map((s) => ({
        step: s.step,
        requests: s.requests,
        failures: s.failures,
        latency: s.latency,
      })),
    });
    this.ctx.emit(snap);
  }

  /**
   * Failures of one step in one interval by kind: what the failures CSV holds beyond what earlier
   * snapshots took, at most `failures`; the rest (the CSV was a moment behind) as `other`.
   */
  private assignErrors(step: number, failures: number, table: FailureTable | undefined): ErrorCounts {
    const out: ErrorCounts = {};
    if (failures === 0) return out;
    let left = failures;
    const taken = this.assigned.get(step) ?? new Map<ErrorKind, number>();
    this.assigned.set(step, taken);
    const counts = table?.byStep.get(step)?.counts;
    if (counts) {
      for (const kind of ERROR_KINDS) {
        const available = (counts.get(kind) ?? 0) - (taken.get(kind) ?? 0);
        if (available <= 0 || left === 0) continue;
        const n = Math.min(available, left);
        out[kind] = n;
        taken.set(kind, (taken.get(kind) ?? 0) + n);
        left -= n;
      }
    }
    if (left > 0) out.other = (out.other ?? 0) + left;
    return out;
  }

  /**
   * After Locust exited: a last snapshot for what happened after its last history write (from the
   * final JSON), then the result from the final stats and failures CSVs.
   */
  finish(
    finalJson: FinalJson | undefined,
    statsCsv: string,
    failuresCsv: string,
  ): DriverResult & { notes: string[] } {
    const notes: string[] = [];
    const failures = parseLocustFailures(failuresCsv, this.ctx.matcher);
    const byStep = new Map<number, FinalEntry>();
    if (finalJson) {
      for (const e of finalJson.entries) {
        const step = this.ctx.matcher.match(e.name);
        if (step < 0) continue;
        const had = byStep.get(step);
        byStep.set(step, had ? mergeFinal(had, e) : e);
      }
      if (!this.base && byStep.size > 0) {
        // Locust never wrote its history (a very short run): one snapshot from the first request on.
        const firstStart = Math.min(...[...byStep.values()].map((e) => e.start_time));
        this.base = { ts: Math.floor(firstStart), users: 0, steps: new Map(), aggregated: ZERO_ENTRY };
        this.prev = this.base;
      }
      if (this.base && this.prev) {
        const g: HistoryGroup = { ts: finalJson.time, users: 0, steps: new Map(), aggregated: ZERO_ENTRY };
        for (const [i, e] of byStep) g.steps.set(i, finalToHistory(e, this.prev.steps.get(i)));
        g.aggregated = { ...this.prev.aggregated };
        const more = [...g.steps].some(([i, e]) => e.requests > (this.prev!.steps.get(i)?.requests ?? 0));
        const lastRequest = Math.max(0, ...[...byStep.values()].map((e) => e.last_request_timestamp ?? 0));
        if (more) this.emitDiff(g, Math.max(this.lastElapsed + 0.001, lastRequest - this.base.ts), failures);
      }
    } else {
      notes.push(
        'Locust did not write its final totals: the figures end at its last stats write (up to 1 s early).',
      );
    }

    const stats = parseLocustStats(statsCsv);
    const rowsByStep = new Map<number, StatsRow>();
    const unmatched: Record<string, number> = {};
    let aggregated: StatsRow | undefined;
    for (const r of stats) {
      if (r.type === '' && r.name === 'Aggregated') {
        aggregated = r;
        continue;
      }
      const step = this.ctx.matcher.match(r.name);
      if (step < 0) {
        unmatched[r.name] = (unmatched[r.name] ?? 0) + r.requests;
        continue;
      }
      const had = rowsByStep.get(step);
      rowsByStep.set(step, had ? mergeStatsRows(had, r) : r);
    }

    const errorTallies = (counts?: Map<ErrorKind, number>, samples?: Map<ErrorKind, string[]>) => {
      const out: Partial<Record<ErrorKind, ErrorTally>> = {};
      for (const kind of ERROR_KINDS) {
        const n = counts?.get(kind) ?? 0;
        if (n > 0) out[kind] = { count: n, samples: [...(samples?.get(kind) ?? [])] };
      }
      return out;
    };

    const api_results: ApiResultRow[] = this.ctx.steps.map((info, i) => {
      const r = rowsByStep.get(i);
      const f = failures.byStep.get(i);
      const requests = r?.requests ?? 0;
      const failed = r?.failures ?? 0;
      const errors = errorTallies(f?.counts, f?.samples);
      const counted = Object.values(errors).reduce((a, t) => a + t.count, 0);
      if (failed > counted) {
        const other = errors.other ?? { count: 0, samples: [] };
        errors.other = { count: other.count + failed - counted, samples: other.samples };
      }
      // Locust rounds its percentiles, its min and max are exact: a p99 of 15 for a max of 14.56 is
      // held at the max (docs/adr/0006-hdr-histograms-merge-exactly.md "Percentiles within min and max").
      return withPercentilesInRange({
        name: info.name,
        label: info.label,
        url: info.url,
        method: info.method,
        total_requests: requests,
        successful_requests: requests - failed,
        failed_requests: failed,
        average_response_time: round3(r?.avg ?? 0),
        percentile_50: r?.p50 ?? 0,
        percentile_95: r?.p95 ?? 0,
        percentile_99: r?.p99 ?? 0,
        min_response_time: round3(r?.min ?? 0),
        max_response_time: round3(r?.max ?? 0),
        error_rate: requests ? round2((failed / requests) * 100) : 0,
        errors,
      });
    });

    const total = api_results.reduce((a, r) => a + r.total_requests, 0);
    const failed = api_results.reduce((a, r) => a + r.failed_requests, 0);
    const sum = api_results.reduce((a, r) => a + r.average_response_time * r.total_requests, 0);
    const bytesReceived = [...rowsByStep.values()].reduce(
      (a, r) => a + Math.round(r.avgSize * r.requests),
      0,
    );
    // Whole-run percentiles: Locust's Aggregated row, unless it also counts requests of no step; then
    // Locust's own percentile rule over the distributions of the steps.
    const merged = new Map<number, number>();
    for (const e of byStep.values())
      for (const [t, n] of e.response_times) merged.set(t, (merged.get(t) ?? 0) + n);
    const pct = (p: number, fromRow: number | undefined): number =>
      Object.keys(unmatched).length === 0 && fromRow !== undefined
        ? fromRow
        : locustPercentile(merged, total, p);
    const first = Math.min(...[...byStep.values()].map((e) => e.start_time).filter((t) => t > 0), Infinity);
    const last = Math.max(...[...byStep.values()].map((e) => e.last_request_timestamp ?? 0), 0);
    const durationS = Number.isFinite(first) && last > first ? last - first : this.lastElapsed;
    const d = durationS > 0 ? durationS : 1;
    const mins = api_results.filter((r) => r.total_requests > 0).map((r) => r.min_response_time);
    const summary: RunSummary = withPercentilesInRange({
      total_requests: total,
      successful_requests: total - failed,
      failed_requests: failed,
      requests_per_second: round2(total / d),
      average_response_time: total ? round3(sum / total) : 0,
      percentile_50: pct(0.5, aggregated?.p50),
      percentile_90: pct(0.9, aggregated?.p90),
      percentile_95: pct(0.95, aggregated?.p95),
      percentile_99: pct(0.99, aggregated?.p99),
      percentile_999: pct(0.999, aggregated?.p999),
      min_response_time: mins.length ? Math.min(...mins) : 0,
      max_response_time: Math.max(0, ...api_results.map((r) => r.max_response_time)),
      avg_bandwidth: round2(bytesReceived / 1024 / d),
      error_rate: total ? round2((failed / total) * 100) : 0,
      test_duration: round3(durationS),
      concurrent_users: this.ctx.users,
      bytes_sent: 0,
      bytes_received: bytesReceived,
    });
    const errors: Partial<Record<ErrorKind, ErrorTally>> = {};
    for (const r of api_results) {
      for (const [k, t] of Object.entries(r.errors) as [ErrorKind, ErrorTally][]) {
        const e = (errors[k] ??= { count: 0, samples: [] });
        e.count += t.count;
        for (const m of t.samples)
          if (e.samples.length < MAX_ERROR_SAMPLES && !e.samples.includes(m)) e.samples.push(m);
      }
    }
    const histogram = new Histogram();
    if (merged.size > 0) {
      const idx = new Map<number, number>();
      let hsum = 0;
      let hmin = Infinity;
      let hmax = 0;
      for (const [t, n] of merged) {
        const v = toRecordable(t * 1000);
        const i = countsIndex(v);
        idx.set(i, (idx.get(i) ?? 0) + n);
        hsum += v * n;
        hmin = Math.min(hmin, v);
        hmax = Math.max(hmax, v);
      }
      const keys = [...idx.keys()].sort((a, b) => a - b);
      histogram.addEncoded({ i: keys, c: keys.map((k) => idx.get(k)!), sum: hsum, min: hmin, max: hmax });
    }
    const startedMs = Number.isFinite(first) ? first * 1000 : Date.now();
    return {
      started_at: new Date(startedMs).toISOString(),
      ended_at: new Date(last > 0 ? last * 1000 : Date.now()).toISOString(),
      summary,
      api_results,
      errors,
      series: this.series,
      histogram: histogram.encode(),
      workers: 1,
      unmatched,
      notes,
    };
  }
}

function mergeFinal(a: FinalEntry, b: FinalEntry): FinalEntry {
  const times = new Map<number, number>(a.response_times);
  for (const [t, n] of b.response_times) times.set(t, (times.get(t) ?? 0) + n);
  return {
    method: a.method,
    name: a.name,
    num_requests: a.num_requests + b.num_requests,
    num_failures: a.num_failures + b.num_failures,
    total_response_time: a.total_response_time + b.total_response_time,
    min_response_time: Math.min(a.min_response_time, b.min_response_time),
    max_response_time: Math.max(a.max_response_time, b.max_response_time),
    total_content_length: a.total_content_length + b.total_content_length,
    start_time: Math.min(a.start_time, b.start_time),
    last_request_timestamp: Math.max(a.last_request_timestamp ?? 0, b.last_request_timestamp ?? 0) || null,
    response_times: [...times],
  };
}

function finalToHistory(e: FinalEntry, prev: HistoryEntry | undefined): HistoryEntry {
  const n = e.num_requests;
  return {
    requests: n,
    failures: e.num_failures,
    avg: n ? e.total_response_time / n : 0,
    min: e.min_response_time,
    max: e.max_response_time,
    avgSize: n ? e.total_content_length / n : 0,
    // No "current" percentiles after the last write: keep the last ones Locust gave.
    p50: prev?.p50 ?? 0,
    p90: prev?.p90 ?? 0,
    p95: prev?.p95 ?? 0,
    p99: prev?.p99 ?? 0,
    p999: prev?.p999 ?? 0,
    p100: prev?.p100 ?? 0,
  };
}

function mergeStatsRows(a: StatsRow, b: StatsRow): StatsRow {
  const n = a.requests + b.requests;
  const big = a.requests >= b.requests ? a : b;
  return {
    ...big,
    requests: n,
    failures: a.failures + b.failures,
    avg: n ? (a.avg * a.requests + b.avg * b.requests) / n : 0,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    avgSize: n ? (a.avgSize * a.requests + b.avgSize * b.requests) / n : 0,
  };
}

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
      return [
        '-f',
        LOCUST_WRAPPER,
        '--headless',
        '-u',
        String(ctx.users),
        '-r',
        String(ctx.users),
        ...mode,
        ...(ctx.host ? ['--host', ctx.host] : []),
        '--csv',
        LOCUST_PREFIX,
        '--csv-full-history',
        '--only-summary',
        // Failed requests are data, not a failed run.
        '--exit-code-on-error',
        '0',
        // At the end users finish the iteration they are in (up to 3 s), so what the target received is counted.
        '--stop-timeout',
        '3',
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
