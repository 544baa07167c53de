import { type Finding, parseThinkTimeMs } from '@aqa/plan';
import type { AssistantData } from '../data';
import { functionalPlanLink, perfPlanLink } from '../links';
import { type Lang, say } from '../text';

function thinkTimeMs(text: string): number | null {
  try {
    return parseThinkTimeMs(text);
  } catch {
    return null;
  }
}

/**
 * Settings that make a test say little (docs/design.md §10): one user with no think time anywhere (requests
 * back to back on one connection: a speed test, not a load), and a functional plan whose ramp-up is longer
 * than its duration (the run ends before every user has started). A load plan has no ramp-up of its own.
 */
export function meaninglessSettingFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  for (const plan of data.perfPlans) {
    if (plan.urls === null || plan.urls.length === 0 || plan.users !== 1) continue;
    if (!plan.urls.every((entry) => thinkTimeMs(entry.thinkTime) === 0)) continue;
    findings.push({
      kind: 'meaningless_setting',
      severity: 'warning',
      title: say(
        lang,
        `${plan.name}: one user and no think time`,
        `${plan.name}: 사용자 1명, 대기 시간 없음`,
      ),
      detail: say(
        lang,
        'One user sends each request as soon as the last one answered: the run measures one connection at full speed, not how the system bears many users. Raise the users, or add a think time.',
        '사용자 1명이 응답을 받자마자 다음 요청을 보냅니다: 여러 사용자를 견디는 능력이 아니라 연결 하나의 최대 속도를 잽니다. 사용자 수를 늘리거나 대기 시간을 추가하세요.',
      ),
      figures: [
        { label: say(lang, 'Users', '사용자'), value: plan.users, unit: 'users' },
        { label: say(lang, 'Think time', '대기 시간'), value: 0, unit: 'ms' },
      ],
      links: [perfPlanLink(plan)],
    });
  }
  for (const plan of data.functionalPlans) {
    const settings = plan.plan;
    if (settings === null) continue;
    const durationSeconds = settings.test_duration * 60;
    if (settings.ramp_up_time <= durationSeconds) continue;
    findings.push({
      kind: 'meaningless_setting',
      severity: 'warning',
      title: say(
        lang,
        `${plan.name}: ramp-up longer than the test`,
        `${plan.name}: 램프업이 테스트 시간보다 깁니다`,
      ),
      detail: say(
        lang,
        `A ramp-up of ${settings.ramp_up_time} s in a test of ${durationSeconds} s: the test ends before its users (${settings.concurrent_users}) have all started. Shorten the ramp-up or lengthen the test.`,
        `테스트 ${durationSeconds}초에 램프업 ${settings.ramp_up_time}초: 사용자 ${settings.concurrent_users}명이 모두 시작하기 전에 테스트가 끝납니다. 램프업을 줄이거나 테스트를 늘리세요.`,
      ),
      figures: [
        { label: say(lang, 'Ramp-up', '램프업'), value: settings.ramp_up_time, unit: 's' },
        { label: say(lang, 'Duration', '테스트 시간'), value: durationSeconds, unit: 's' },
        { label: say(lang, 'Users', '사용자'), value: settings.concurrent_users, unit: 'users' },
      ],
      links: [functionalPlanLink(plan)],
    });
  }
  return findings;
}
