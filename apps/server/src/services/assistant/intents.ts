import { type GlossaryTerm, termOf } from './glossary';

/*
 * What a question asks, by its words in English or Korean (docs/design.md §10). The order of the checks
 * matters: "what does p95 mean" is a definition, "why is p95 higher" a question about runs.
 */

export type Intent =
  | { kind: 'glossary'; term: GlossaryTerm }
  | { kind: 'review' }
  | { kind: 'compare' }
  | { kind: 'why_slower' }
  | { kind: 'most_failing' }
  | { kind: 'slowest' }
  | { kind: 'plan_status' }
  | { kind: 'unknown' };

const ASKS_MEANING =
  /\bwhat\b.*\b(mean|is|are)\b|\bmeaning\b|\bmeans?\b|\bdefin|\bexplain|뜻|의미|이란|란\s*(뭐|무엇)|무엇|뭐야|뭔가요|설명/;
const REVIEW = /\breview\b|check my plans|\bfindings\b|\baudit\b|검토|리뷰|점검/;
const COMPARE = /\bcompare\b|\bcomparison\b|\bvs\.?\b|\bversus\b|비교/;
const WHY_SLOWER =
  /\bslower\b|\bslowed\b|\bgot slow|\bregress|\bworse\b|why\b.*\b(slow|higher|longer|increase|worse)|왜.*(느|늦|나빠)|느려|늦어|나빠졌/;
const FAILING = /\bfail|\berrors?\b|실패|오류|에러/;
const RANKING = /\bmost\b|\bwhich\b|\btop\b|\bworst\b|가장|제일|어떤|어느|많이/;
const SLOWEST =
  /\bslowest\b|\bmost slow|(which|what)\b.*\bslow\b|가장\s*느린|제일\s*느린|느린\s*(api|엔드포인트|단계)/;
const STATUS =
  /how\s*(is|was|are|did|'s)|\bdoing\b|\bstatus\b|\bsummar|\blast run\b|\blatest run\b|\bresults?\b|어때|어떤가|어땠|상태|요약|결과|마지막\s*실행|최근\s*실행/;

export function intentOf(question: string): Intent {
  const q = question.toLowerCase();
  const term = termOf(q);
  if (term !== null && ASKS_MEANING.test(q) && !WHY_SLOWER.test(q)) return { kind: 'glossary', term };
  if (REVIEW.test(q)) return { kind: 'review' };
  if (COMPARE.test(q)) return { kind: 'compare' };
  if (SLOWEST.test(q)) return { kind: 'slowest' };
  if (WHY_SLOWER.test(q)) return { kind: 'why_slower' };
  if (FAILING.test(q) && RANKING.test(q)) return { kind: 'most_failing' };
  if (STATUS.test(q)) return { kind: 'plan_status' };
  return { kind: 'unknown' };
}
