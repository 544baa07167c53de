import { latencyInRange, withPercentilesInRange } from '@aqa/plan';
import { countsIndex, Histogram, toRecordable } from '../metrics/histogram';
import { ERROR_KINDS, MAX_ERROR_SAMPLES, type ErrorKind } from '../metrics/types';
import type {
  ApiResultRow,
  ErrorCounts,
  ErrorTally,
  IntervalFigures,
  LatencySummary,
  RunResult,
  RunSnapshot,
  RunSummary,
  SeriesPoint,
  StepSnapshot,
} from '../types';
import type { DriverContext, DriverResult } from './driver';
import { flowIterations, type ToolFlows } from './tool-flows';
import {
  finalToHistory,
  LocustHistoryReader,
  locustPercentile,
  mergeFinal,
  mergeStatsRows,
  parseLocustFailures,
  parseLocustStats,
  ZERO_ENTRY,
  type FailureTable,
  type FinalEntry,
  type FinalJson,
  type HistoryEntry,
  type HistoryGroup,
  type StatsRow,
} from './locust-output';

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const EMPTY_HISTOGRAM = { i: [], c: [], sum: 0, min: 0, max: 0 };

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

/**
 * One second's figures of a step or of the whole run, from what Locust counted in it. Locust gives no
 * bytes sent and no histogram; the latency is read only when something was answered.
 */
function intervalFigures(
  requests: number,
  failures: number,
  errors: ErrorCounts,
  bytesReceived: number,
  perSeconds: number,
  answeredLatency: () => LatencySummary,
): IntervalFigures {
  return {
    requests,
    successes: requests - failures,
    failures,
    errors,
    bytesSent: 0,
    bytesReceived,
    requestsPerSecond: round2(requests / perSeconds),
    errorRate: requests ? round2((failures / requests) * 100) : 0,
    bandwidthKBs: round2(bytesReceived / 1024 / perSeconds),
    latency: requests ? answeredLatency() : latency(undefined, 0),
    histogram: EMPTY_HISTOGRAM,
  };
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

  constructor(
    private readonly ctx: Pick<DriverContext, 'steps' | 'matcher' | 'users' | 'emit'> & {
      /** A plan with flows whose iterations the run counts (tool-flows.ts). */
      flows?: ToolFlows | undefined;
    },
  ) {
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
      const figures = intervalFigures(requests, failures, errors, bytes, per, () =>
        latency(this.withPercentiles(cur, i), sum / requests),
      );
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
    const whole = intervalFigures(requests, failures, errors, bytes, per, () =>
      latency(this.withPercentiles(g.aggregated, -1), sum / requests),
    );
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
    const flows = this.ctx.flows;
    if (flows !== undefined) {
      const counts = flowIterations(flows, (step) => steps[step]?.requests ?? 0);
      snap.flows = flows.flows.map((f, i) => ({ name: f.name, iterations: counts[i]! }));
    }
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
      ...(this.ctx.flows === undefined ? {} : { flows: flowRows(this.ctx.flows, api_results, byStep) }),
    };
  }
}

/**
 * Each flow's row of the result (docs/adr/0027-load-profiles.md "Runs in the tools"): its iterations are
 * its first call's requests; its calls' requests added up; its percentiles by Locust's own rule over
 * its calls' response-time distributions, as the run's are (Locust keeps no raw samples).
 */
function flowRows(
  flows: ToolFlows,
  rows: readonly ApiResultRow[],
  byStep: ReadonlyMap<number, FinalEntry>,
): NonNullable<RunResult['flows']> {
  const iterations = flowIterations(flows, (step) => rows[step]?.total_requests ?? 0);
  const all = iterations.reduce((a, b) => a + b, 0);
  return flows.flows.map((f, k) => {
    const own = f.steps.map((i) => rows[i]).filter((r): r is ApiResultRow => r !== undefined);
    const requests = own.reduce((a, r) => a + r.total_requests, 0);
    const failed = own.reduce((a, r) => a + r.failed_requests, 0);
    const times = new Map<number, number>();
    for (const i of f.steps)
      for (const [t, n] of byStep.get(i)?.response_times ?? []) times.set(t, (times.get(t) ?? 0) + n);
    const sent = own.filter((r) => r.total_requests > 0);
    const pct = (p: number): number => locustPercentile(times, requests, p);
    return {
      name: f.name,
      weight: f.weight,
      iterations: iterations[k]!,
      share: all ? round2((iterations[k]! / all) * 100) : 0,
      total_requests: requests,
      successful_requests: requests - failed,
      failed_requests: failed,
      error_rate: requests ? round2((failed / requests) * 100) : 0,
      latency: latencyInRange({
        avg: requests
          ? round3(own.reduce((a, r) => a + r.average_response_time * r.total_requests, 0) / requests)
          : 0,
        p50: pct(0.5),
        p90: pct(0.9),
        p95: pct(0.95),
        p99: pct(0.99),
        p999: pct(0.999),
        min: sent.length ? Math.min(...sent.map((r) => r.min_response_time)) : 0,
        max: Math.max(0, ...own.map((r) => r.max_response_time)),
      }),
    };
  });
}
