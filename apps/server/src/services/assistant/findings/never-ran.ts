import type { Finding } from '@aqa/plan';
import type { AssistantData } from '../data';
import { functionalPlanLink, perfPlanLink } from '../links';
import { type Lang, say } from '../text';

/** Plans that never ran (docs/design.md §10): nothing is known of them yet. */
export function neverRanFindings(
  data: AssistantData,
  ran: { perf: ReadonlySet<string>; functional: ReadonlySet<string> },
  lang: Lang,
): Finding[] {
  const findings: Finding[] = [];
  const finding = (name: string, link: Finding['links'][number]): Finding => ({
    kind: 'never_ran',
    severity: 'info',
    title: say(lang, `${name} has never run`, `${name}은(는) 한 번도 실행되지 않았습니다`),
    detail: say(
      lang,
      'A plan that never ran has no figures: run it once to get a result to compare later runs with.',
      '실행된 적 없는 플랜에는 수치가 없습니다: 한 번 실행해 이후 실행과 비교할 결과를 만드세요.',
    ),
    figures: [{ label: say(lang, 'Runs', '실행'), value: 0 }],
    links: [link],
  });
  for (const plan of data.perfPlans) {
    if (!ran.perf.has(plan.id)) findings.push(finding(plan.name, perfPlanLink(plan)));
  }
  for (const plan of data.functionalPlans) {
    if (!ran.functional.has(plan.id)) findings.push(finding(plan.name, functionalPlanLink(plan)));
  }
  return findings;
}
