import type { Finding } from '@aqa/plan';
import { type AssistantData, measuredRunsOf, type PerfRunView } from '../data';
import { compareLink, perfPlanLink, perfRunLink } from '../links';
import { changeFigures, compareSummaries, describeChange } from '../metrics';
import { ERROR_RATE_TOLERANCE_POINTS, REGRESSION_TOLERANCE_PERCENT } from '../rules';
import { type Lang, say, when } from '../text';

/**
 * Regressions: a plan's last completed run against the run before it and against the plan's baseline
 * (docs/design.md §10). p95 and throughput count beyond REGRESSION_TOLERANCE_PERCENT, the error rate
 * beyond ERROR_RATE_TOLERANCE_POINTS percentage points.
 */
export function regressionFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  for (const plan of data.perfPlans) {
    const [last, previous] = measuredRunsOf(data, plan.id);
    if (last === undefined) continue;
    const references: { run: PerfRunView; kind: 'previous' | 'baseline' }[] = [];
    if (previous !== undefined) references.push({ run: previous, kind: 'previous' });
    const baseline = plan.baselineRunId === null ? undefined : data.baselines.get(plan.baselineRunId);
    if (
      baseline !== undefined &&
      // A baseline may be a run that ended early (history's comparability rule): it measured requests.
      (baseline.summary?.total_requests ?? 0) > 0 &&
      baseline.status !== 'running' &&
      baseline.status !== 'processing' &&
      baseline.id !== last.id &&
      baseline.id !== previous?.id
    ) {
      references.push({ run: baseline, kind: 'baseline' });
    }
    for (const reference of references) {
      if (reference.run.summary === null) continue;
      const regressed = compareSummaries(reference.run.summary, last.summary).filter((c) => c.regressed);
      if (regressed.length === 0) continue;
      const against =
        reference.kind === 'previous'
          ? say(lang, 'the run before it', '그 전 실행')
          : say(lang, "the plan's baseline", '플랜의 기준 실행');
      const beforeLabel =
        reference.kind === 'previous'
          ? say(lang, 'previous run', '이전 실행')
          : say(lang, 'baseline', '기준');
      const afterLabel = say(lang, 'last run', '마지막 실행');
      const changes = regressed.map((change) => describeChange(change, lang)).join('; ');
      // A load of other users is another test: say so, as it explains part of any change.
      const users =
        reference.run.users === last.users
          ? ''
          : say(
              lang,
              ` The users differ: ${reference.run.users} then ${last.users}.`,
              ` 사용자 수가 다릅니다: ${reference.run.users}명, 그다음 ${last.users}명.`,
            );
      findings.push({
        kind: 'regression',
        severity: 'problem',
        title: say(
          lang,
          `${plan.name}: the last run regressed against ${against}`,
          `${plan.name}: 마지막 실행이 ${against}보다 나빠졌습니다`,
        ),
        detail: say(
          lang,
          `The run of ${when(last.startedAt)} against ${when(reference.run.startedAt)}: ${changes}. Tolerance: ${REGRESSION_TOLERANCE_PERCENT} % for p95 and throughput, ${ERROR_RATE_TOLERANCE_POINTS} point for the error rate.${users}`,
          `${when(last.startedAt)} 실행과 ${when(reference.run.startedAt)} 실행 비교: ${changes}. 허용 범위: p95와 처리량 ${REGRESSION_TOLERANCE_PERCENT} %, 오류율 ${ERROR_RATE_TOLERANCE_POINTS}%p.${users}`,
        ),
        figures: regressed.flatMap((change) => changeFigures(change, lang, beforeLabel, afterLabel)),
        links: [
          perfRunLink(last, say(lang, 'Last run', '마지막 실행')),
          perfRunLink(
            reference.run,
            reference.kind === 'previous'
              ? say(lang, 'Previous run', '이전 실행')
              : say(lang, 'Baseline', '기준 실행'),
          ),
          compareLink(reference.run, last, say(lang, 'Compare the two runs', '두 실행 비교')),
          perfPlanLink(plan),
        ],
      });
    }
  }
  return findings;
}
