import type { ApiResult, AskAnswer, AssistantFigure, AssistantLink, Finding } from '@aqa/plan';
import {
  type AssistantData,
  type FunctionalPlanView,
  isMeasuredRun,
  measuredRunsOf,
  type PerfPlanView,
  type PerfRunView,
} from './data';
import {
  mostFailingFunctionalApi,
  mostFailingFunctionalApiFinding,
  mostFailingLoadApi,
  mostFailingLoadApiFinding,
  functionalApisBySpeed,
  slowestApiFinding,
  slowestFunctionalApiFinding,
  tallyLoadApis,
} from './findings/api-rankings';
import { definition, type GlossaryTerm } from './glossary';
import { compareLink, functionalPlanLink, functionalRunLink, perfPlanLink, perfRunLink } from './links';
import { changeFigures, compareSummaries, describeChange, type MetricChange } from './metrics';
import { REGRESSION_TOLERANCE_PERCENT } from './rules';
import { counted, type Lang, num, percentChange, round2, say, signedPercent, when } from './text';

/*
 * The analyser's answers to Ask James (docs/design.md §10): each built from the user's stored runs, with
 * the figures it used and links to the runs and plans it read. Nothing here guesses: where the data is
 * not there, the answer says what is missing.
 */

function answered(answer: string, figures: AssistantFigure[], links: AssistantLink[]): AskAnswer {
  return { answer, figures, links, source: 'analyser', understood: true };
}

/** The APIs of two runs of one plan, matched by method, URL and name: p95 before and after. */
interface ApiChange {
  name: string;
  before: ApiResult;
  after: ApiResult;
  deltaMs: number;
  deltaPercent: number | null;
}

function apiChanges(before: PerfRunView, after: PerfRunView): ApiChange[] {
  const key = (api: ApiResult) => JSON.stringify([api.method, api.url, api.name || api.label]);
  const earlier = new Map(before.apis.map((api) => [key(api), api]));
  const changes: ApiChange[] = [];
  for (const api of after.apis) {
    const old = earlier.get(key(api));
    if (old === undefined || old.total_requests === 0 || api.total_requests === 0) continue;
    changes.push({
      name: api.name || api.label,
      before: old,
      after: api,
      deltaMs: api.percentile_95 - old.percentile_95,
      deltaPercent: percentChange(old.percentile_95, api.percentile_95),
    });
  }
  return changes;
}

function describeApiChange(change: ApiChange): string {
  const percent = change.deltaPercent === null ? '' : `, ${signedPercent(change.deltaPercent)}`;
  return `${change.name} p95 ${num(change.before.percentile_95)} → ${num(change.after.percentile_95)} ms${percent}`;
}

const byKey = (changes: MetricChange[], key: MetricChange['metric']['key']) =>
  changes.find((change) => change.metric.key === key)!;

/**
 * "Why was my last run slower?" and "compare my last two runs of X": the plan's last two completed runs,
 * whole-run figures and the APIs whose p95 moved most.
 */
export function compareRunsAnswer(
  data: AssistantData,
  plan: PerfPlanView,
  lang: Lang,
  mode: 'why_slower' | 'compare',
): AskAnswer {
  const runs = measuredRunsOf(data, plan.id);
  const [last, previous] = runs;
  if (last === undefined || previous === undefined) {
    return answered(
      say(
        lang,
        `${plan.name} has ${runs.length} completed run${runs.length === 1 ? '' : 's'} with figures; James needs two to compare. Run it again and ask once more.`,
        `${plan.name}에는 수치가 있는 완료된 실행이 ${runs.length}개 있습니다. 비교하려면 두 개가 필요합니다. 한 번 더 실행한 뒤 다시 물어보세요.`,
      ),
      [{ label: say(lang, 'Completed runs', '완료된 실행'), value: runs.length }],
      [perfPlanLink(plan), ...(last === undefined ? [] : [perfRunLink(last)])],
    );
  }
  const changes = compareSummaries(previous.summary, last.summary);
  const p95 = byKey(changes, 'percentile_95');
  const average = byKey(changes, 'average_response_time');
  const apis = apiChanges(previous, last);
  const moved = [...apis]
    .filter((change) => (mode === 'why_slower' ? change.deltaMs > 0 : change.deltaMs !== 0))
    .sort((a, b) => Math.abs(b.deltaMs) - Math.abs(a.deltaMs))
    .slice(0, 3);

  const slower = p95.worse || average.worse;
  const beyond = p95.regressed;
  const opening =
    mode === 'compare'
      ? say(
          lang,
          `Your last two runs of ${plan.name}, ${when(previous.startedAt)} and ${when(last.startedAt)}:`,
          `${plan.name}의 최근 두 실행, ${when(previous.startedAt)}와 ${when(last.startedAt)}:`,
        )
      : !slower
        ? say(
            lang,
            `Your last run of ${plan.name} (${when(last.startedAt)}) was not slower than the one before (${when(previous.startedAt)}):`,
            `${plan.name}의 마지막 실행(${when(last.startedAt)})은 그 전 실행(${when(previous.startedAt)})보다 느리지 않았습니다:`,
          )
        : beyond
          ? say(
              lang,
              `Your last run of ${plan.name} (${when(last.startedAt)}) was slower than the one before (${when(previous.startedAt)}):`,
              `${plan.name}의 마지막 실행(${when(last.startedAt)})은 그 전 실행(${when(previous.startedAt)})보다 느렸습니다:`,
            )
          : say(
              lang,
              `Your last run of ${plan.name} (${when(last.startedAt)}) was a little slower than the one before (${when(previous.startedAt)}), within the ${REGRESSION_TOLERANCE_PERCENT} % James counts as noise:`,
              `${plan.name}의 마지막 실행(${when(last.startedAt)})은 그 전 실행(${when(previous.startedAt)})보다 조금 느렸지만 James가 잡음으로 보는 ${REGRESSION_TOLERANCE_PERCENT} % 안입니다:`,
            );
  const sentences = [`${opening} ${changes.map((change) => describeChange(change, lang)).join('; ')}.`];
  if (previous.users !== last.users) {
    sentences.push(
      say(
        lang,
        `The users went from ${previous.users} to ${last.users}: more load explains part of any change.`,
        `사용자가 ${previous.users}명에서 ${last.users}명으로 바뀌었습니다: 부하가 늘면 변화의 일부가 설명됩니다.`,
      ),
    );
  }
  if (moved.length > 0) {
    const list = moved.map(describeApiChange).join('; ');
    sentences.push(
      mode === 'why_slower'
        ? say(lang, `The APIs that got slower: ${list}.`, `느려진 API: ${list}.`)
        : say(lang, `The APIs that moved most: ${list}.`, `가장 많이 바뀐 API: ${list}.`),
    );
  } else if (mode === 'why_slower' && slower) {
    sentences.push(
      say(
        lang,
        'No single API got slower at p95: the change is spread over the run.',
        'p95 기준으로 느려진 API는 따로 없습니다: 변화가 실행 전체에 퍼져 있습니다.',
      ),
    );
  }
  const before = say(lang, 'previous run', '이전 실행');
  const after = say(lang, 'last run', '마지막 실행');
  const figures = [
    ...changes
      .filter((change) => change.metric.key !== 'percentile_99')
      .flatMap((change) => changeFigures(change, lang, before, after)),
    ...moved.flatMap((change) => [
      { label: `${change.name} p95 (${before})`, value: round2(change.before.percentile_95), unit: 'ms' },
      { label: `${change.name} p95 (${after})`, value: round2(change.after.percentile_95), unit: 'ms' },
    ]),
  ];
  return answered(sentences.join(' '), figures, [
    perfRunLink(last, after),
    perfRunLink(previous, before),
    compareLink(previous, last, say(lang, 'Compare the two runs', '두 실행 비교')),
    perfPlanLink(plan),
  ]);
}

/** The last two runs of a functional plan: calls, failures and each API's response time. */
export function functionalCompareAnswer(
  data: AssistantData,
  plan: FunctionalPlanView,
  lang: Lang,
): AskAnswer {
  const runs = data.functionalRuns.filter((run) => run.planId === plan.id && run.status !== 'running');
  const [last, previous] = runs;
  if (last === undefined || previous === undefined) {
    return answered(
      say(
        lang,
        `${plan.name} has ${runs.length} ended run${runs.length === 1 ? '' : 's'}; James needs two to compare.`,
        `${plan.name}에는 끝난 실행이 ${runs.length}개 있습니다. 비교하려면 두 개가 필요합니다.`,
      ),
      [{ label: say(lang, 'Ended runs', '끝난 실행'), value: runs.length }],
      [functionalPlanLink(plan)],
    );
  }
  const earlier = new Map(previous.apis.map((api) => [JSON.stringify([api.method, api.url, api.name]), api]));
  const apiLines: string[] = [];
  const figures: AssistantFigure[] = [];
  for (const api of last.apis) {
    const old = earlier.get(JSON.stringify([api.method, api.url, api.name]));
    if (old === undefined) continue;
    apiLines.push(
      `${api.name} ${num(old.response_time)} → ${num(api.response_time)} ms (${old.status} → ${api.status})`,
    );
    figures.push(
      {
        label: `${api.name} (${say(lang, 'previous run', '이전 실행')})`,
        value: round2(old.response_time),
        unit: 'ms',
      },
      {
        label: `${api.name} (${say(lang, 'last run', '마지막 실행')})`,
        value: round2(api.response_time),
        unit: 'ms',
      },
    );
  }
  const failed = (run: typeof last) => run.summary?.failed_requests ?? 0;
  const total = (run: typeof last) => run.summary?.total_requests ?? 0;
  const text = say(
    lang,
    `Your last two runs of ${plan.name}: ${previous.status} with ${failed(previous)} of ${total(previous)} calls failed (${when(previous.startedAt)}), then ${last.status} with ${failed(last)} of ${total(last)} failed (${when(last.startedAt)}).${apiLines.length > 0 ? ` Average response time per API: ${apiLines.join('; ')}.` : ''}`,
    `${plan.name}의 최근 두 실행: ${previous.status}, 호출 ${total(previous)}개 중 ${failed(previous)}개 실패 (${when(previous.startedAt)}), 그다음 ${last.status}, ${total(last)}개 중 ${failed(last)}개 실패 (${when(last.startedAt)}).${apiLines.length > 0 ? ` API별 평균 응답 시간: ${apiLines.join('; ')}.` : ''}`,
  );
  return answered(
    text,
    [
      { label: say(lang, 'Failed calls (previous run)', '실패한 호출 (이전 실행)'), value: failed(previous) },
      { label: say(lang, 'Failed calls (last run)', '실패한 호출 (마지막 실행)'), value: failed(last) },
      ...figures,
    ],
    [
      functionalRunLink(last, say(lang, 'Last run', '마지막 실행')),
      functionalRunLink(previous, say(lang, 'Previous run', '이전 실행')),
      functionalPlanLink(plan),
    ],
  );
}

/** "Which API fails most?" over the recent load and functional runs. */
export function mostFailingAnswer(data: AssistantData, lang: Lang): AskAnswer {
  const findings: Finding[] = [];
  const load = mostFailingLoadApi(data);
  if (load !== undefined) findings.push(mostFailingLoadApiFinding(load, lang));
  const functional = mostFailingFunctionalApi(data);
  if (functional !== undefined) findings.push(mostFailingFunctionalApiFinding(functional, lang));
  if (findings.length === 0) {
    const runs = data.perfRuns.length + data.functionalRuns.length;
    return answered(
      runs === 0
        ? say(
            lang,
            'You have no runs yet, so no API has failed.',
            '아직 실행이 없어서 실패한 API도 없습니다.',
          )
        : say(
            lang,
            'No API failed in your recent runs: every request and call passed.',
            '최근 실행에서 실패한 API가 없습니다: 모든 요청과 호출이 통과했습니다.',
          ),
      [{ label: say(lang, 'Runs read', '읽은 실행'), value: runs }],
      [],
    );
  }
  return answered(
    findings.map((finding) => `${finding.title}. ${finding.detail}`).join(' '),
    findings.flatMap((finding) => finding.figures),
    findings.flatMap((finding) => finding.links),
  );
}

/** "Which API is slowest?" over the recent load runs: the slowest, and the two after it. */
export function slowestAnswer(data: AssistantData, lang: Lang): AskAnswer {
  const ranked = tallyLoadApis(data).sort((a, b) => b.averageMs - a.averageMs);
  const slowest = ranked[0];
  if (slowest === undefined) {
    // No load run: the functional runs' API times, when there are some.
    const functional = functionalApisBySpeed(data);
    const first = functional[0];
    if (first === undefined) {
      return answered(
        say(
          lang,
          'None of your runs has per-API figures yet: run a test plan first.',
          '아직 API별 수치가 있는 실행이 없습니다: 먼저 테스트 플랜을 실행하세요.',
        ),
        [],
        [],
      );
    }
    const finding = slowestFunctionalApiFinding(first, lang);
    return answered(`${finding.title}. ${finding.detail}`, finding.figures, finding.links);
  }
  const finding = slowestApiFinding(slowest, lang);
  const next = ranked.slice(1, 3).map((tally) => `${tally.name} ${num(tally.averageMs)} ms`);
  const rest =
    next.length > 0 ? say(lang, ` After it: ${next.join(', ')}.`, ` 그다음: ${next.join(', ')}.`) : '';
  return answered(`${finding.title}. ${finding.detail}${rest}`, finding.figures, finding.links);
}

/** "How is X doing?" of a plan (load or functional) without a run: zero runs, and the plan to run it from. */
function neverRanAnswer(planName: string, planLink: AssistantLink, lang: Lang): AskAnswer {
  return answered(
    say(lang, `${planName} has never run.`, `${planName}은(는) 한 번도 실행되지 않았습니다.`),
    [{ label: say(lang, 'Runs', '실행'), value: 0 }],
    [planLink],
  );
}

/** "How is X doing?": the plan's last run, with how it compares to the one before. */
export function perfStatusAnswer(data: AssistantData, plan: PerfPlanView, lang: Lang): AskAnswer {
  const last = data.perfRuns.find((run) => run.planId === plan.id);
  if (last === undefined) {
    return neverRanAnswer(plan.name, perfPlanLink(plan), lang);
  }
  const s = last.summary;
  if (s === null || s.total_requests === 0) {
    return answered(
      say(
        lang,
        `The last run of ${plan.name} (${when(last.startedAt)}) is ${last.status} and measured no request yet.`,
        `${plan.name}의 마지막 실행(${when(last.startedAt)})은 ${last.status} 상태이며 아직 측정된 요청이 없습니다.`,
      ),
      [],
      [perfRunLink(last), perfPlanLink(plan)],
    );
  }
  const text = say(
    lang,
    `The last run of ${plan.name} (${when(last.startedAt)}) ${last.status}: ${last.users} users, ${s.total_requests} requests at ${num(s.requests_per_second)} req/s, average ${num(s.average_response_time)} ms, p95 ${num(s.percentile_95)} ms, p99 ${num(s.percentile_99)} ms, error rate ${num(s.error_rate)} %.`,
    `${plan.name}의 마지막 실행(${when(last.startedAt)}) ${last.status}: 사용자 ${last.users}명, 요청 ${s.total_requests}개, ${num(s.requests_per_second)} req/s, 평균 ${num(s.average_response_time)} ms, p95 ${num(s.percentile_95)} ms, p99 ${num(s.percentile_99)} ms, 오류율 ${num(s.error_rate)} %.`,
  );
  const previous = measuredRunsOf(data, plan.id).find(
    (run) => run.id !== last.id && run.startedAt < last.startedAt,
  );
  let trend = '';
  if (previous !== undefined && isMeasuredRun(last)) {
    const regressed = compareSummaries(previous.summary, last.summary).filter((change) => change.regressed);
    trend =
      regressed.length === 0
        ? say(lang, ' No regression against the run before.', ' 그 전 실행보다 나빠진 점은 없습니다.')
        : say(
            lang,
            ` Against the run before: ${regressed.map((change) => describeChange(change, lang)).join('; ')}.`,
            ` 그 전 실행 대비: ${regressed.map((change) => describeChange(change, lang)).join('; ')}.`,
          );
  }
  return answered(
    text + trend,
    [
      { label: say(lang, 'Users', '사용자'), value: last.users, unit: 'users' },
      { label: say(lang, 'Requests', '요청'), value: s.total_requests },
      { label: say(lang, 'Throughput', '처리량'), value: round2(s.requests_per_second), unit: 'req/s' },
      { label: say(lang, 'Average', '평균'), value: round2(s.average_response_time), unit: 'ms' },
      { label: 'p95', value: round2(s.percentile_95), unit: 'ms' },
      { label: 'p99', value: round2(s.percentile_99), unit: 'ms' },
      { label: say(lang, 'Error rate', '오류율'), value: round2(s.error_rate), unit: '%' },
    ],
    [perfRunLink(last, say(lang, 'Last run', '마지막 실행')), perfPlanLink(plan)],
  );
}

export function functionalStatusAnswer(data: AssistantData, plan: FunctionalPlanView, lang: Lang): AskAnswer {
  const last = data.functionalRuns.find((run) => run.planId === plan.id);
  if (last === undefined) {
    return neverRanAnswer(plan.name, functionalPlanLink(plan), lang);
  }
  const total = last.summary?.total_requests ?? 0;
  const failed = last.summary?.failed_requests ?? 0;
  const validation = last.summary?.validation_failures ?? 0;
  const failing = last.apis.filter((api) => api.status === 'failed').map((api) => api.name);
  const failingText =
    failing.length > 0 ? say(lang, ` Failing: ${failing.join(', ')}.`, ` 실패: ${failing.join(', ')}.`) : '';
  // A run a server died during ended with what it had judged (docs/adr/0016-crash-recovery.md): say so.
  const text =
    last.status === 'interrupted'
      ? say(
          lang,
          `The last run of ${plan.name} (${when(last.startedAt)}) was interrupted: the server stopped during it. Before that it judged ${counted(total, 'call', 'calls')}: ${failed} failed, ${counted(validation, 'validation failure', 'validation failures')}.${failingText}`,
          `${plan.name}의 마지막 실행(${when(last.startedAt)})은 실행 중 서버가 멈춰 중단되었습니다. 그 전에 호출 ${total}개를 판정했고 실패 ${failed}개, 검증 실패 ${validation}개입니다.${failingText}`,
        )
      : say(
          lang,
          `The last run of ${plan.name} (${when(last.startedAt)}) ${last.status}: ${counted(total, 'call', 'calls')}, ${failed} failed, ${counted(validation, 'validation failure', 'validation failures')}.${failingText}`,
          `${plan.name}의 마지막 실행(${when(last.startedAt)}) ${last.status}: 호출 ${total}개, 실패 ${failed}개, 검증 실패 ${validation}개.${failingText}`,
        );
  return answered(
    text,
    [
      { label: say(lang, 'Calls', '호출'), value: total },
      { label: say(lang, 'Failed calls', '실패한 호출'), value: failed },
      { label: say(lang, 'Validation failures', '검증 실패'), value: validation },
    ],
    [functionalRunLink(last, say(lang, 'Last run', '마지막 실행')), functionalPlanLink(plan)],
  );
}

export function glossaryAnswer(term: GlossaryTerm, lang: Lang): AskAnswer {
  return answered(definition(term, lang), [], []);
}

/** "Review my plans": the findings, counted by severity, each listed. */
export function reviewAnswer(findings: Finding[], lang: Lang): AskAnswer {
  if (findings.length === 0) {
    return {
      ...answered(
        say(
          lang,
          'James found nothing to point out in your plans and runs.',
          'James가 플랜과 실행에서 지적할 점을 찾지 못했습니다.',
        ),
        [{ label: say(lang, 'Findings', '발견'), value: 0 }],
        [],
      ),
      findings,
    };
  }
  const count = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  const head = say(
    lang,
    `James found ${findings.length}: ${count('problem')} problems, ${count('warning')} warnings, ${count('info')} notes.`,
    `James가 ${findings.length}개를 찾았습니다: 문제 ${count('problem')}개, 경고 ${count('warning')}개, 참고 ${count('info')}개.`,
  );
  return {
    ...answered(
      [head, ...findings.map((finding) => `• ${finding.title}`)].join('\n'),
      [
        { label: say(lang, 'Problems', '문제'), value: count('problem') },
        { label: say(lang, 'Warnings', '경고'), value: count('warning') },
        { label: say(lang, 'Notes', '참고'), value: count('info') },
      ],
      findings.flatMap((finding) => finding.links.slice(0, 1)),
    ),
    findings,
  };
}

/** A question about runs when the user has none. */
export function noRunsAnswer(lang: Lang): AskAnswer {
  return answered(
    say(
      lang,
      'You have no runs yet: run a test plan, then ask again.',
      '아직 실행이 없습니다: 테스트 플랜을 실행한 뒤 다시 물어보세요.',
    ),
    [{ label: say(lang, 'Runs', '실행'), value: 0 }],
    [],
  );
}

/** The questions James answers, with one of the user's plan names where one fits. */
export function suggestionsFor(data: AssistantData, lang: Lang): string[] {
  // The plan of the newest load run, as the one most likely asked about; else any plan.
  const ran = data.perfRuns
    .map((run) => data.perfPlans.find((p) => p.id === run.planId))
    .find((p) => p !== undefined);
  const plan = ran?.name ?? data.perfPlans[0]?.name ?? data.functionalPlans[0]?.name;
  const named = plan ?? say(lang, 'my plan', '내 플랜');
  return lang === 'ko'
    ? [
        '내 마지막 실행은 왜 느려졌어?',
        '어떤 API가 가장 많이 실패해?',
        '가장 느린 API는 뭐야?',
        `${named} 최근 두 실행 비교해줘`,
        `${named} 어때?`,
        'p95가 무슨 뜻이야?',
        '내 플랜 검토해줘',
      ]
    : [
        'Why was my last run slower?',
        'Which API fails most?',
        'Which API is slowest?',
        `Compare my last two runs of ${named}`,
        `How is ${named} doing?`,
        'What does p95 mean?',
        'Review my plans',
      ];
}
