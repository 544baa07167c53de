import type { Finding } from '@aqa/plan';
import { type AssistantData, measuredRunsOf } from '../data';
import { perfPlanLink, perfRunLink } from '../links';
import { SATURATION_THROUGHPUT_GROWTH_PERCENT, SATURATION_USERS_FACTOR } from '../rules';
import { type Lang, num, percentChange, round2, say, signedPercent } from '../text';

/**
 * Saturation (docs/design.md §10): across a plan's completed runs with growing users (the newest run at
 * each user count), the first step where users grew at least SATURATION_USERS_FACTOR times but
 * throughput grew less than SATURATION_THROUGHPUT_GROWTH_PERCENT.
 */
export function saturationFindings(data: AssistantData, lang: Lang): Finding[] {
  const findings: Finding[] = [];
  for (const plan of data.perfPlans) {
    const newestByUsers = new Map<number, ReturnType<typeof measuredRunsOf>[number]>();
    for (const run of measuredRunsOf(data, plan.id)) {
      if (!newestByUsers.has(run.users)) newestByUsers.set(run.users, run);
    }
    const levels = [...newestByUsers.values()].sort((a, b) => a.users - b.users);
    for (let i = 1; i < levels.length; i += 1) {
      const lower = levels[i - 1]!;
      const higher = levels[i]!;
      const factor = higher.users / lower.users;
      const growth = percentChange(lower.summary.requests_per_second, higher.summary.requests_per_second);
      if (factor < SATURATION_USERS_FACTOR || growth === null) continue;
      if (growth >= SATURATION_THROUGHPUT_GROWTH_PERCENT) continue;
      const usersText = `${lower.users} → ${higher.users}`;
      const rpsText = `${num(lower.summary.requests_per_second)} → ${num(higher.summary.requests_per_second)} req/s (${signedPercent(growth)})`;
      const p95Text = `${num(lower.summary.percentile_95)} → ${num(higher.summary.percentile_95)} ms`;
      findings.push({
        kind: 'saturation',
        severity: 'warning',
        title: say(
          lang,
          `${plan.name}: throughput stops growing at about ${lower.users} users`,
          `${plan.name}: 약 ${lower.users}명부터 처리량이 늘지 않습니다`,
        ),
        detail: say(
          lang,
          `Users ${usersText} (×${num(factor)}) but throughput ${rpsText}, while p95 went ${p95Text}. The system stops keeping up between these loads: look at the server's CPU, connections and pools there. (${levels.length} user counts compared; saturation: users ×${SATURATION_USERS_FACTOR} or more with under +${SATURATION_THROUGHPUT_GROWTH_PERCENT} % throughput.)`,
          `사용자 ${usersText} (×${num(factor)})인데 처리량은 ${rpsText}, p95는 ${p95Text}입니다. 이 부하 사이에서 시스템이 따라가지 못합니다: 서버의 CPU, 연결, 풀을 확인하세요. (사용자 수 ${levels.length}단계 비교; 포화 기준: 사용자 ×${SATURATION_USERS_FACTOR} 이상에 처리량 +${SATURATION_THROUGHPUT_GROWTH_PERCENT} % 미만.)`,
        ),
        figures: [
          { label: say(lang, 'Users (lower load)', '사용자 (낮은 부하)'), value: lower.users, unit: 'users' },
          {
            label: say(lang, 'Users (higher load)', '사용자 (높은 부하)'),
            value: higher.users,
            unit: 'users',
          },
          {
            label: say(lang, 'Throughput (lower load)', '처리량 (낮은 부하)'),
            value: round2(lower.summary.requests_per_second),
            unit: 'req/s',
          },
          {
            label: say(lang, 'Throughput (higher load)', '처리량 (높은 부하)'),
            value: round2(higher.summary.requests_per_second),
            unit: 'req/s',
          },
          { label: say(lang, 'Throughput change', '처리량 변화'), value: round2(growth), unit: '%' },
          {
            label: say(lang, 'p95 (higher load)', 'p95 (높은 부하)'),
            value: round2(higher.summary.percentile_95),
            unit: 'ms',
          },
        ],
        links: [
          perfRunLink(lower, say(lang, `Run with ${lower.users} users`, `사용자 ${lower.users}명 실행`)),
          perfRunLink(higher, say(lang, `Run with ${higher.users} users`, `사용자 ${higher.users}명 실행`)),
          perfPlanLink(plan),
        ],
      });
      break;
    }
  }
  return findings;
}
