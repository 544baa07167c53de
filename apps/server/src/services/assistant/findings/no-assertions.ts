import { effectiveValidations, type Finding, hasAssertion } from '@aqa/plan';
import type { AssistantData } from '../data';
import { functionalPlanLink, perfPlanLink } from '../links';
import { type Lang, say } from '../text';

/**
 * Steps that check nothing (docs/design.md §10): a load plan's URL entries without an assertion count any
 * answer as a success; a functional API without an enabled rule is judged by the default rule only
 * (status code 200, docs/reference/02-running.md §5); a UI page without a rule only has to load.
 */
export function noAssertionFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  for (const plan of data.perfPlans) {
    if (plan.urls === null) continue;
    const bare = plan.urls.filter((entry) => !hasAssertion(entry));
    if (bare.length === 0) continue;
    const names = bare.map((entry) => entry.name || `${entry.method} ${entry.url}`).join(', ');
    findings.push({
      kind: 'no_assertions',
      severity: 'warning',
      title: say(
        lang,
        `${plan.name}: ${bare.length} of ${plan.urls.length} steps have no assertion`,
        `${plan.name}: 단계 ${plan.urls.length}개 중 ${bare.length}개에 어설션이 없습니다`,
      ),
      detail: say(
        lang,
        `A step without an assertion counts any answer as a success, an error page too: ${names}. Add a status or body assertion to each.`,
        `어설션이 없는 단계는 오류 페이지까지 모든 응답을 성공으로 셉니다: ${names}. 각 단계에 상태 코드나 본문 어설션을 추가하세요.`,
      ),
      figures: [
        { label: say(lang, 'Steps without an assertion', '어설션 없는 단계'), value: bare.length },
        { label: say(lang, 'Steps', '단계'), value: plan.urls.length },
      ],
      links: [perfPlanLink(plan)],
    });
  }
  for (const plan of data.functionalPlans) {
    if (plan.plan === null || plan.kind === 'script') continue;
    const ui = plan.kind === 'ui';
    // Test scripts (a Postman request's, or the plan's) judge an API as rules do.
    const planScripts = plan.plan.scripts?.test.length ?? 0;
    const bare = plan.plan.apis.filter(
      (api) =>
        !api.validations.some((rule) => rule.enabled) && planScripts + (api.scripts?.test.length ?? 0) === 0,
    );
    if (bare.length === 0) continue;
    const names = bare.map((api) => api.name || api.url).join(', ');
    const defaultRule = effectiveValidations([])[0]!;
    const noDefault = plan.plan.default_status_rule === false;
    findings.push({
      kind: 'no_assertions',
      severity: 'info',
      title: ui
        ? say(
            lang,
            `${plan.name}: ${bare.length} of ${plan.plan.apis.length} pages have no validation`,
            `${plan.name}: 페이지 ${plan.plan.apis.length}개 중 ${bare.length}개에 검증 규칙이 없습니다`,
          )
        : say(
            lang,
            `${plan.name}: ${bare.length} of ${plan.plan.apis.length} APIs have no validation of their own`,
            `${plan.name}: API ${plan.plan.apis.length}개 중 ${bare.length}개에 자체 검증 규칙이 없습니다`,
          ),
      detail: ui
        ? say(
            lang,
            `These pages pass as long as they load: ${names}. Add a text, element or title check.`,
            `이 페이지들은 열리기만 하면 통과합니다: ${names}. 텍스트, 요소 또는 제목 검사를 추가하세요.`,
          )
        : noDefault
          ? say(
              lang,
              `These APIs pass as long as they answer, whatever the status (the plan adds no default rule, as Newman): ${names}. Add a status or body rule, or a test.`,
              `이 API들은 상태와 관계없이 응답만 있으면 통과합니다(이 플랜은 Newman처럼 기본 규칙을 붙이지 않습니다): ${names}. 상태나 본문 규칙, 또는 테스트를 추가하세요.`,
            )
          : say(
              lang,
              `These APIs are judged by the default rule only (${defaultRule.type} ${defaultRule.expected_value}): ${names}. Add a rule on the body or headers.`,
              `이 API들은 기본 규칙(${defaultRule.type} ${defaultRule.expected_value})으로만 판정됩니다: ${names}. 본문이나 헤더 규칙을 추가하세요.`,
            ),
      figures: [
        {
          label: ui
            ? say(lang, 'Pages without a rule', '규칙 없는 페이지')
            : say(lang, 'APIs without a rule', '규칙 없는 API'),
          value: bare.length,
        },
        { label: ui ? say(lang, 'Pages', '페이지') : 'API', value: plan.plan.apis.length },
      ],
      links: [functionalPlanLink(plan)],
    });
  }
  return findings;
}
