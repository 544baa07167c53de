import type {
  ApiComparison,
  ApiDelta,
  ApiFigures,
  ApiResult,
  MetricComparison,
  MetricKey,
  PastRun,
  RunComparison,
} from '@aqa/plan';
import { ValidationError } from '../../errors';
import type { RunRepository } from '../../repositories/run.repository';
import type { AccountUser } from '../account-user';
import { chartPointOf, type RunPointData } from '../runs/run-model';
import type { RunService } from '../runs/run.service';
import { comparability } from './comparable';

export const METRICS = [
  { key: 'requests_per_second', label: 'Requests/sec', unit: 'req/s', higherIsBetter: true },
  { key: 'average_response_time', label: 'Average response time', unit: 'ms', higherIsBetter: false },
  { key: 'percentile_95', label: '95th percentile', unit: 'ms', higherIsBetter: false },
  { key: 'percentile_99', label: '99th percentile', unit: 'ms', higherIsBetter: false },
  { key: 'error_rate', label: 'Error rate', unit: '%', higherIsBetter: false },
] as const satisfies readonly { key: MetricKey; label: string; unit: string; higherIsBetter: boolean }[];

type Summary = NonNullable<PastRun['results_summary']>;

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Two finished runs of the user side by side: whole-run figures, per API, and their timelines. */
export class CompareService {
  constructor(
    private readonly runs: RunRepository,
    private readonly runService: RunService,
  ) {}

  async compare(user: AccountUser, baseId: string, candidateId: string): Promise<RunComparison> {
    const [base, candidate] = await Promise.all([
      this.runService.pastRun(user, baseId),
      this.runService.pastRun(user, candidateId),
    ]);
    const baseSummary = finishedSummary(base, 'base');
    const candidateSummary = finishedSummary(candidate, 'candidate');
    const [basePoints, candidatePoints] = await Promise.all([
      this.runs.wholeRunPointsOf(base.test_id),
      this.runs.wholeRunPointsOf(candidate.test_id),
    ]);
    const series = (points: typeof basePoints) =>
      points.map((p) => chartPointOf(p.second, JSON.parse(p.data) as RunPointData));
    return {
      base,
      candidate,
      metrics: METRICS.map((m) => compareMetric(m, baseSummary[m.key], candidateSummary[m.key])),
      apis: compareApis(baseSummary, candidateSummary),
      series: { base: series(basePoints), candidate: series(candidatePoints) },
    };
  }
}

/**
 * Only a run that has ended with measured figures can be compared (see comparable.ts): a stopped or
 * failed one too, its figures covering the seconds it ran; its status in the answer marks it partial.
 */
function finishedSummary(run: PastRun, side: 'base' | 'candidate'): Summary {
  const verdict = comparability(run);
  if (!verdict.ok) {
    throw new ValidationError([{ field: side, message: verdict.message }], { code: verdict.code });
  }
  return run.results_summary!;
}

function compareMetric(metric: (typeof METRICS)[number], base: number, candidate: number): MetricComparison {
  const delta = candidate - base;
  return {
    key: metric.key,
    label: metric.label,
    unit: metric.unit,
    base,
    candidate,
    delta: round(delta, 3),
    delta_percent: percentOf(delta, base),
    worse: metric.higherIsBetter ? delta < 0 : delta > 0,
  };
}

function percentOf(delta: number, base: number): number | null {
  return base === 0 ? null : round((delta / base) * 100, 2);
}

function apiDelta(base: number | undefined, candidate: number | undefined): ApiDelta {
  if (base === undefined || candidate === undefined) return { delta_percent: null, worse: false };
  const delta = candidate - base;
  return { delta_percent: percentOf(delta, base), worse: delta > 0 };
}

function figures(api: ApiResult, testDurationS: number): ApiFigures {
  return {
    total_requests: api.total_requests,
    requests_per_second: testDurationS > 0 ? round(api.total_requests / testDurationS, 2) : 0,
    average_response_time: api.average_response_time,
    percentile_95: api.percentile_95,
    percentile_99: api.percentile_99,
    error_rate: api.error_rate,
  };
}

/** "GET https://x/y (List items)", with "#2", "#3" for the same API listed again in one run. */
function keyed(apis: ApiResult[]): { key: string; api: ApiResult }[] {
  const seen = new Map<string, number>();
  return apis.map((api) => {
    const plain = `${api.method} ${api.url} (${api.name})`;
    const n = (seen.get(plain) ?? 0) + 1;
    seen.set(plain, n);
    return { key: n === 1 ? plain : `${plain} #${n}`, api };
  });
}

/** APIs matched by method, url and name: the candidate's in its order, then those only the base ran. */
function compareApis(base: Summary, candidate: Summary): ApiComparison[] {
  const baseByKey = new Map(keyed(base.api_results).map(({ key, api }) => [key, api]));
  const candidateKeyed = keyed(candidate.api_results);
  const candidateKeys = new Set(candidateKeyed.map(({ key }) => key));
  const row = (key: string, b: ApiResult | undefined, c: ApiResult | undefined): ApiComparison => {
    const b2 = b === undefined ? null : figures(b, base.test_duration);
    const c2 = c === undefined ? null : figures(c, candidate.test_duration);
    const shown = (c ?? b)!;
    return {
      key,
      name: shown.name,
      method: shown.method,
      url: shown.url,
      base: b2,
      candidate: c2,
      deltas: {
        average_response_time: apiDelta(b2?.average_response_time, c2?.average_response_time),
        percentile_95: apiDelta(b2?.percentile_95, c2?.percentile_95),
        error_rate: apiDelta(b2?.error_rate, c2?.error_rate),
      },
    };
  };
  return [
    ...candidateKeyed.map(({ key, api }) => row(key, baseByKey.get(key), api)),
    ...keyed(base.api_results)
      .filter(({ key }) => !candidateKeys.has(key))
      .map(({ key, api }) => row(key, api, undefined)),
  ];
}
