import { httpErrorSample } from '../executor/http-error';
import { MAX_ERROR_SAMPLES, type ErrorKind } from '../metrics/types';
import { CsvStream, headerIndex, parseCsvText } from './csv';
import type { StepMatcher } from './steps';

/**
 * Locust's output files read into plain figures (the format is described in locust.ts): the stats
 * history as it grows, the stats and failures CSVs, and the wrapper's final JSON (locust-files.ts).
 * LocustResults (locust-results.ts) turns them into snapshots and a result.
 */

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

const num = (s: string | undefined): number => {
  const v = Number(s);
  return Number.isFinite(v) ? v : 0;
};

/** The figures Locust writes for one name, both in stats-history rows and in PREFIX_stats.csv. */
interface LocustFigures {
  requests: number;
  failures: number;
  avg: number;
  min: number;
  max: number;
  avgSize: number;
  /** Percentiles, ms; 0 when N/A (in stats history, Locust's current ones: the last ~10 s). */
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
}

/** One name's cumulative figures in a stats-history row. */
export interface HistoryEntry extends LocustFigures {
  p100: number;
}

export interface HistoryGroup {
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

export const ZERO_ENTRY: HistoryEntry = {
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
export interface FinalEntry {
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
export interface FinalJson {
  time: number;
  entries: FinalEntry[];
  total: FinalEntry;
}

/** A row of PREFIX_stats.csv. */
export interface StatsRow extends LocustFigures {
  type: string;
  name: string;
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

export function mergeFinal(a: FinalEntry, b: FinalEntry): FinalEntry {
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

export function finalToHistory(e: FinalEntry, prev: HistoryEntry | undefined): HistoryEntry {
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

export function mergeStatsRows(a: StatsRow, b: StatsRow): StatsRow {
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
