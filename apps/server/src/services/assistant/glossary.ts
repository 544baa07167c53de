import type { Lang } from './text';

/* What James says a term means (docs/design.md §10); the words of docs/reference/02-running.md §3. */

export const GLOSSARY_TERMS = [
  'p95',
  'p99',
  'error_rate',
  'throughput',
  'think_time',
  'ramp_up',
  'baseline',
  'saturation',
  'average',
] as const;
export type GlossaryTerm = (typeof GLOSSARY_TERMS)[number];

/** The words that name each term in a question (lowercased), English and Korean. */
export const TERM_PATTERNS: Readonly<Record<GlossaryTerm, RegExp>> = {
  p95: /\bp95\b|95(th)?\s*percentile|95\s*백분위|95번째/,
  p99: /\bp99\b|99(th)?\s*percentile|99\s*백분위|99번째/,
  error_rate: /error\s*rate|failure\s*rate|오류율|에러율|실패율/,
  throughput: /throughput|requests?\s*per\s*second|req\/s|\brps\b|\btps\b|처리량/,
  think_time: /think\s*-?time|대기\s*시간|생각\s*시간|씽크\s*타임/,
  ramp_up: /ramp\s*-?up|램프\s*업/,
  baseline: /baseline|기준\s*실행|베이스라인/,
  saturation: /saturat|포화/,
  average: /average|\bmean response|평균/,
};

const DEFINITIONS: Readonly<Record<GlossaryTerm, { en: string; ko: string }>> = {
  p95: {
    en: 'p95 (the 95th percentile) is the response time that 95 % of requests beat: one request in 20 took longer. It shows what a slow-but-not-rare user sees, which the average hides. AnybodyQA measures it from an HDR histogram of every request of the run.',
    ko: 'p95(95번째 백분위수)는 요청의 95 %가 그보다 빨랐던 응답 시간입니다: 20개 중 1개는 더 오래 걸렸습니다. 평균이 감추는, 드물지 않은 느린 사용자의 경험을 보여 줍니다. AnybodyQA는 실행의 모든 요청을 담은 HDR 히스토그램에서 계산합니다.',
  },
  p99: {
    en: 'p99 (the 99th percentile) is the response time that 99 % of requests beat: one request in 100 took longer. It is the tail: timeouts, pauses and queues show here first.',
    ko: 'p99(99번째 백분위수)는 요청의 99 %가 그보다 빨랐던 응답 시간입니다: 100개 중 1개는 더 오래 걸렸습니다. 꼬리 지연으로, 타임아웃·일시 정지·대기열이 가장 먼저 드러나는 곳입니다.',
  },
  error_rate: {
    en: 'The error rate is the share of requests that failed, in percent: no answer, a time-out, an HTTP error status or a failed assertion. 2 % means 2 requests in 100.',
    ko: '오류율은 실패한 요청의 비율(%)입니다: 응답 없음, 타임아웃, HTTP 오류 상태, 실패한 어설션. 2 %는 100개 중 2개입니다.',
  },
  throughput: {
    en: 'Throughput is how many requests per second (req/s) the system answered over the run. With more users it should grow; when it stops growing while users grow, the system is saturated.',
    ko: '처리량은 실행 동안 시스템이 초당 응답한 요청 수(req/s)입니다. 사용자가 늘면 함께 늘어야 하며, 사용자가 늘어도 더 늘지 않으면 시스템이 포화된 것입니다.',
  },
  think_time: {
    en: 'Think time is the pause a virtual user makes after a step before the next, as a person reads a page. Without it each user sends requests back to back, which is harder than real traffic; with it, users × 1 / (response time + think time) is roughly the request rate.',
    ko: '대기 시간(think time)은 가상 사용자가 한 단계 뒤 다음 단계 전에 쉬는 시간으로, 사람이 화면을 읽는 시간에 해당합니다. 없으면 각 사용자가 요청을 쉬지 않고 보내 실제 트래픽보다 가혹해지고, 있으면 요청률은 대략 사용자 수 × 1 / (응답 시간 + 대기 시간)입니다.',
  },
  ramp_up: {
    en: 'Ramp-up is the time over which the users start, one after another, instead of all at once. It must be shorter than the test, or the test ends before every user has started.',
    ko: '램프업은 사용자들이 한꺼번에가 아니라 차례로 시작하는 데 걸리는 시간입니다. 테스트 시간보다 짧아야 하며, 그렇지 않으면 모든 사용자가 시작하기 전에 테스트가 끝납니다.',
  },
  baseline: {
    en: "A plan's baseline is the run you chose to compare its later runs with: James reports a later run's regressions against it as well as against the run before.",
    ko: '플랜의 기준 실행(baseline)은 이후 실행을 비교하려고 고른 실행입니다: James는 이후 실행이 나빠진 점을 직전 실행과 함께 기준 실행에 대해서도 알려 줍니다.',
  },
  saturation: {
    en: 'Saturation is the load beyond which the system cannot answer more: users grow but throughput stays flat and response times climb. James looks for it across runs of one plan with growing users.',
    ko: '포화는 시스템이 더 많이 응답하지 못하는 부하 지점입니다: 사용자는 늘지만 처리량은 그대로이고 응답 시간이 올라갑니다. James는 사용자 수를 늘려 가며 실행한 한 플랜의 실행들에서 이를 찾습니다.',
  },
  average: {
    en: 'The average response time is the sum of every response time over the number of requests. A few very slow requests move it little, so read it with p95 and p99.',
    ko: '평균 응답 시간은 모든 응답 시간의 합을 요청 수로 나눈 값입니다. 아주 느린 요청 몇 개로는 거의 변하지 않으니 p95, p99와 함께 보세요.',
  },
};

export function definition(term: GlossaryTerm, lang: Lang): string {
  return DEFINITIONS[term][lang];
}

/** The first term the question names, or null. */
export function termOf(question: string): GlossaryTerm | null {
  const lower = question.toLowerCase();
  return GLOSSARY_TERMS.find((term) => TERM_PATTERNS[term].test(lower)) ?? null;
}
