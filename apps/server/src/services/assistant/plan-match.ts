import type { AssistantData } from './data';

/* Finding the plan a question names, by a fuzzy match on plan names (docs/design.md §10). */

export type PlanRef =
  { kind: 'perf'; id: string; name: string } | { kind: 'functional'; id: string; name: string };

/** A match below this Dice similarity is no match. */
const MIN_SIMILARITY = 0.6;

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function bigrams(text: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i < text.length - 1; i += 1) grams.push(text.slice(i, i + 2));
  return grams;
}

/** Dice coefficient of the character bigrams of two texts without spaces. */
export function similarity(a: string, b: string): number {
  const x = bigrams(a.replace(/\s+/g, ''));
  const y = bigrams(b.replace(/\s+/g, ''));
  if (x.length === 0 || y.length === 0) return a === b ? 1 : 0;
  const counts = new Map<string, number>();
  for (const gram of x) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  let common = 0;
  for (const gram of y) {
    const left = counts.get(gram) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(gram, left - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

/** How well the question names the plan: 1 and more for the whole name, else the best window's similarity. */
function score(questionWords: string[], questionText: string, name: string): number {
  const nameWords = words(name);
  if (nameWords.length === 0) return 0;
  const nameText = nameWords.join(' ');
  if (` ${questionText} `.includes(` ${nameText} `)) return 1 + nameText.length / 1000;
  let best = 0;
  for (let size = Math.max(1, nameWords.length - 1); size <= nameWords.length + 1; size += 1) {
    for (let start = 0; start + size <= questionWords.length; start += 1) {
      const window = questionWords.slice(start, start + size).join(' ');
      best = Math.max(best, similarity(window, nameText));
    }
  }
  return best;
}

/** The user's plan the question names best, if any names it well enough. */
export function matchPlan(question: string, data: AssistantData): PlanRef | null {
  const questionWords = words(question);
  const questionText = questionWords.join(' ');
  const candidates: PlanRef[] = [
    ...data.perfPlans.map((plan) => ({ kind: 'perf' as const, id: plan.id, name: plan.name })),
    ...data.functionalPlans.map((plan) => ({ kind: 'functional' as const, id: plan.id, name: plan.name })),
  ];
  let best: { ref: PlanRef; score: number } | null = null;
  for (const ref of candidates) {
    const s = score(questionWords, questionText, ref.name);
    if (s >= MIN_SIMILARITY && (best === null || s > best.score)) best = { ref, score: s };
  }
  return best?.ref ?? null;
}
