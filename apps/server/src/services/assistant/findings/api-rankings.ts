import type { AssistantLink, Finding, FunctionalApiResult } from '@aqa/plan';
import type { AssistantData, FunctionalRunView, PerfRunView } from '../data';
import { functionalRunLink, perfRunLink } from '../links';
import { RECENT_RUNS_FOR_APIS } from '../rules';
import { type Lang, num, round2, say } from '../text';

/*
 * The slowest and the most failing APIs across the user's recent runs (docs/design.md §10), from the
 * per-API rows each run stores (docs/reference/02-running.md §3 "API result row").
 */

/** One API (by plan, method, URL and name) over the recent load runs. */
export interface LoadApiTally {
  planName: string;
  name: string;
  method: string;
  url: string;
  runs: number;
  requests: number;
  failed: number;
  /** Weighted by requests. */
  averageMs: number;
  /** The highest p95 of any of its runs. */
  worstP95Ms: number;
  /** The newest run that called it. */
  latestRun: PerfRunView;
}

/** The per-API rows of the newest ended load runs that measured requests, summed per API. */
export function tallyLoadApis(data: AssistantData): LoadApiTally[] {
  const recent = data.perfRuns
    .filter((run) => run.status !== 'running' && run.status !== 'processing' && run.apis.length > 0)
    .slice(0, RECENT_RUNS_FOR_APIS);
  const tallies = new Map<string, LoadApiTally & { timeSum: number }>();
  for (const run of recent) {
    for (const api of run.apis) {
      if (api.total_requests <= 0) continue;
      const name = api.name || api.label;
      const key = JSON.stringify([run.planName, api.method, api.url, name]);
      const tally = tallies.get(key) ?? {
        planName: run.planName,
        name,
        method: api.method,
        url: api.url,
        runs: 0,
        requests: 0,
        failed: 0,
        averageMs: 0,
        worstP95Ms: 0,
        latestRun: run,
        timeSum: 0,
      };
      tally.runs += 1;
      tally.requests += api.total_requests;
      tally.failed += api.failed_requests;
      tally.timeSum += api.average_response_time * api.total_requests;
      tally.worstP95Ms = Math.max(tally.worstP95Ms, api.percentile_95);
      tallies.set(key, tally);
    }
  }
  return [...tallies.values()].map(({ timeSum, ...tally }) => ({
    ...tally,
    averageMs: tally.requests > 0 ? timeSum / tally.requests : 0,
  }));
}

export function slowestLoadApi(data: AssistantData): LoadApiTally | undefined {
  return tallyLoadApis(data).sort((a, b) => b.averageMs - a.averageMs || b.worstP95Ms - a.worstP95Ms)[0];
}

export function mostFailingLoadApi(data: AssistantData): LoadApiTally | undefined {
  return tallyLoadApis(data)
    .filter((tally) => tally.failed > 0)
    .sort((a, b) => b.failed - a.failed || b.failed / b.requests - a.failed / a.requests)[0];
}

/** One API's result in one run, with the key that names that API (test, method, URL, name) across runs. */
interface FunctionalCall {
  run: FunctionalRunView;
  api: FunctionalApiResult;
  key: string;
}

/** Every API the newest ended functional runs called (not the ones a run skipped), newest run first. */
function recentFunctionalCalls(data: AssistantData): FunctionalCall[] {
  return data.functionalRuns
    .filter((run) => run.status !== 'running')
    .slice(0, RECENT_RUNS_FOR_APIS)
    .flatMap((run) =>
      run.apis
        .filter((api) => api.status !== 'not_run')
        .map((api) => ({ run, api, key: JSON.stringify([run.name, api.method, api.url, api.name]) })),
    );
}

/** One API of a functional plan over the recent functional runs. */
export interface FunctionalApiTally {
  testName: string;
  name: string;
  method: string;
  url: string;
  runs: number;
  failedRuns: number;
  /** The rules it failed in any run, by name. */
  failedRules: string[];
  latestFailedRun: { id: string; name: string; startedAt: string };
}

export function mostFailingFunctionalApi(data: AssistantData): FunctionalApiTally | undefined {
  const tallies = new Map<string, FunctionalApiTally>();
  for (const { run, api, key } of recentFunctionalCalls(data)) {
    const tally = tallies.get(key) ?? {
      testName: run.name,
      name: api.name,
      method: api.method,
      url: api.url,
      runs: 0,
      failedRuns: 0,
      failedRules: [],
      latestFailedRun: run,
    };
    tally.runs += 1;
    if (api.status !== 'success') {
      if (tally.failedRuns === 0) tally.latestFailedRun = run;
      tally.failedRuns += 1;
      for (const rule of api.validation_results) {
        if (!rule.passed && !tally.failedRules.includes(rule.name)) tally.failedRules.push(rule.name);
      }
    }
    tallies.set(key, tally);
  }
  return [...tallies.values()]
    .filter((tally) => tally.failedRuns > 0)
    .sort((a, b) => b.failedRuns - a.failedRuns || b.failedRuns / b.runs - a.failedRuns / a.runs)[0];
}

/** One API of a functional plan by its average time over the recent functional runs that called it. */
export interface FunctionalTimeTally {
  testName: string;
  name: string;
  method: string;
  url: string;
  runs: number;
  /** The mean of its runs' average response times. */
  averageMs: number;
  latestRun: { id: string; name: string; startedAt: string };
}

/** The functional APIs by average time, slowest first (for users without load runs). */
export function functionalApisBySpeed(data: AssistantData): FunctionalTimeTally[] {
  const tallies = new Map<string, FunctionalTimeTally & { sum: number }>();
  for (const { run, api, key } of recentFunctionalCalls(data)) {
    const tally = tallies.get(key) ?? {
      testName: run.name,
      name: api.name,
      method: api.method,
      url: api.url,
      runs: 0,
      averageMs: 0,
      latestRun: run,
      sum: 0,
    };
    tally.runs += 1;
    tally.sum += api.response_time;
    tallies.set(key, tally);
  }
  return [...tallies.values()]
    .map(({ sum, ...tally }) => ({ ...tally, averageMs: sum / tally.runs }))
    .sort((a, b) => b.averageMs - a.averageMs);
}

export function slowestFunctionalApiFinding(tally: FunctionalTimeTally, lang: Lang): Finding {
  return {
    kind: 'slowest_api',
    severity: 'info',
    title: say(
      lang,
      `Slowest functional API: ${apiLabel(tally)}`,
      `가장 느린 기능 테스트 API: ${apiLabel(tally)}`,
    ),
    detail: say(
      lang,
      `In ${tally.testName}: ${num(tally.averageMs)} ms on average over ${tally.runs} recent runs.`,
      `${tally.testName}: 최근 실행 ${tally.runs}개에서 평균 ${num(tally.averageMs)} ms.`,
    ),
    figures: [
      {
        label: say(lang, 'Average response time', '평균 응답 시간'),
        value: round2(tally.averageMs),
        unit: 'ms',
      },
      { label: say(lang, 'Runs', '실행'), value: tally.runs },
    ],
    links: [functionalRunLink(tally.latestRun, say(lang, 'Newest run with it', '이 API의 최근 실행'))],
  };
}

function apiLabel(tally: { name: string; method: string; url: string }): string {
  return `${tally.name} (${tally.method} ${tally.url})`;
}

export function slowestApiFinding(tally: LoadApiTally, lang: Lang): Finding {
  return {
    kind: 'slowest_api',
    severity: 'info',
    title: say(lang, `Slowest API: ${apiLabel(tally)}`, `가장 느린 API: ${apiLabel(tally)}`),
    detail: say(
      lang,
      `In ${tally.planName}: ${num(tally.averageMs)} ms on average over ${tally.requests} requests in ${tally.runs} of your last ${RECENT_RUNS_FOR_APIS} load runs, p95 up to ${num(tally.worstP95Ms)} ms.`,
      `${tally.planName}: 최근 부하 실행 ${RECENT_RUNS_FOR_APIS}개 중 ${tally.runs}개, 요청 ${tally.requests}개에서 평균 ${num(tally.averageMs)} ms, p95 최대 ${num(tally.worstP95Ms)} ms.`,
    ),
    figures: [
      {
        label: say(lang, 'Average response time', '평균 응답 시간'),
        value: round2(tally.averageMs),
        unit: 'ms',
      },
      { label: say(lang, 'Highest p95', '최고 p95'), value: round2(tally.worstP95Ms), unit: 'ms' },
      { label: say(lang, 'Requests', '요청'), value: tally.requests },
      { label: say(lang, 'Runs', '실행'), value: tally.runs },
    ],
    links: [perfRunLink(tally.latestRun, say(lang, 'Newest run with it', '이 API의 최근 실행'))],
  };
}

export function mostFailingLoadApiFinding(tally: LoadApiTally, lang: Lang): Finding {
  const rate = (tally.failed / tally.requests) * 100;
  return {
    kind: 'most_failing_api',
    severity: rate >= 5 ? 'problem' : 'warning',
    title: say(lang, `Most failing API: ${apiLabel(tally)}`, `가장 많이 실패한 API: ${apiLabel(tally)}`),
    detail: say(
      lang,
      `In ${tally.planName}: ${tally.failed} of ${tally.requests} requests failed (${num(rate)} %) in ${tally.runs} of your last ${RECENT_RUNS_FOR_APIS} load runs.`,
      `${tally.planName}: 최근 부하 실행 ${RECENT_RUNS_FOR_APIS}개 중 ${tally.runs}개에서 요청 ${tally.requests}개 중 ${tally.failed}개 실패 (${num(rate)} %).`,
    ),
    figures: [
      { label: say(lang, 'Failed requests', '실패한 요청'), value: tally.failed },
      { label: say(lang, 'Requests', '요청'), value: tally.requests },
      { label: say(lang, 'Error rate', '오류율'), value: round2(rate), unit: '%' },
      { label: say(lang, 'Runs', '실행'), value: tally.runs },
    ],
    links: [perfRunLink(tally.latestRun, say(lang, 'Newest run with it', '이 API의 최근 실행'))],
  };
}

export function mostFailingFunctionalApiFinding(tally: FunctionalApiTally, lang: Lang): Finding {
  const rules =
    tally.failedRules.length > 0 ? tally.failedRules.join(', ') : say(lang, 'no response', '응답 없음');
  const link: AssistantLink = functionalRunLink(
    tally.latestFailedRun,
    say(lang, 'Newest failed run', '최근 실패한 실행'),
  );
  return {
    kind: 'most_failing_api',
    severity: 'problem',
    title: say(
      lang,
      `Most failing functional API: ${apiLabel(tally)}`,
      `가장 많이 실패한 기능 테스트 API: ${apiLabel(tally)}`,
    ),
    detail: say(
      lang,
      `In ${tally.testName}: failed in ${tally.failedRuns} of its ${tally.runs} recent runs (failed: ${rules}).`,
      `${tally.testName}: 최근 실행 ${tally.runs}개 중 ${tally.failedRuns}개에서 실패 (실패: ${rules}).`,
    ),
    figures: [
      { label: say(lang, 'Failed runs', '실패한 실행'), value: tally.failedRuns },
      { label: say(lang, 'Runs', '실행'), value: tally.runs },
    ],
    links: [link],
  };
}

export function apiRankingFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  const failing = mostFailingLoadApi(data);
  if (failing !== undefined) findings.push(mostFailingLoadApiFinding(failing, lang));
  const failingFunctional = mostFailingFunctionalApi(data);
  if (failingFunctional !== undefined)
    findings.push(mostFailingFunctionalApiFinding(failingFunctional, lang));
  const slowest = slowestLoadApi(data);
  const slowestFunctional = functionalApisBySpeed(data)[0];
  if (slowest !== undefined) findings.push(slowestApiFinding(slowest, lang));
  else if (slowestFunctional !== undefined)
    findings.push(slowestFunctionalApiFinding(slowestFunctional, lang));
  return findings;
}
