import type { Finding } from '@aqa/plan';
import type { AssistantData } from '../data';
import { functionalPlanLink, functionalRunLink } from '../links';
import { counted, type Lang, say, when } from '../text';

/** Functional plans whose last run failed a validation or a call (docs/design.md §10). */
export function lastValidationFailedFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  for (const plan of data.functionalPlans) {
    const last = data.functionalRuns.find((run) => run.planId === plan.id && run.status !== 'running');
    if (last === undefined) continue;
    const summary = last.summary;
    const failedCalls = summary?.failed_requests ?? 0;
    const validationFailures = summary?.validation_failures ?? 0;
    if (last.status !== 'failed' && failedCalls === 0 && validationFailures === 0) continue;
    const failing = last.apis
      .filter((api) => api.status === 'failed')
      .map((api) => {
        const rules = api.validation_results.filter((rule) => !rule.passed).map((rule) => rule.name);
        return rules.length > 0 ? `${api.name} (${rules.join(', ')})` : api.name;
      });
    const what =
      failing.length > 0
        ? say(lang, `Failing: ${failing.join('; ')}.`, `실패: ${failing.join('; ')}.`)
        : last.error !== null
          ? last.error
          : '';
    findings.push({
      kind: 'last_validation_failed',
      severity: 'problem',
      title: say(lang, `${plan.name}: the last run failed`, `${plan.name}: 마지막 실행이 실패했습니다`),
      detail: say(
        lang,
        `The run of ${when(last.startedAt)}: ${failedCalls} of ${counted(summary?.total_requests ?? 0, 'call', 'calls')} failed, ${counted(validationFailures, 'validation failure', 'validation failures')}. ${what}`.trim(),
        `${when(last.startedAt)} 실행: 호출 ${summary?.total_requests ?? 0}개 중 ${failedCalls}개 실패, 검증 실패 ${validationFailures}개. ${what}`.trim(),
      ),
      figures: [
        { label: say(lang, 'Calls', '호출'), value: summary?.total_requests ?? 0 },
        { label: say(lang, 'Failed calls', '실패한 호출'), value: failedCalls },
        { label: say(lang, 'Validation failures', '검증 실패'), value: validationFailures },
      ],
      links: [functionalRunLink(last, say(lang, 'Last run', '마지막 실행')), functionalPlanLink(plan)],
    });
  }
  return findings;
}
