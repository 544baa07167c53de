import { describe, expect, it } from 'vitest';
import type { AssistantData } from '../src/services/assistant/data';
import { intentOf } from '../src/services/assistant/intents';
import { matchPlan, similarity } from '../src/services/assistant/plan-match';
import { languageOf } from '../src/services/assistant/text';

/* How Ask James reads a question (docs/design.md §10): its intent, the plan it names, its language. */

describe('the intent of a question', () => {
  it.each([
    ['Why was my last run slower?', 'why_slower'],
    ['why is my p95 higher than yesterday', 'why_slower'],
    ['Did the checkout regress?', 'why_slower'],
    ['내 마지막 실행은 왜 느려졌어?', 'why_slower'],
    ['왜 응답이 늦어졌나요', 'why_slower'],
    ['Which API fails most?', 'most_failing'],
    ['what endpoint has the most errors', 'most_failing'],
    ['어떤 API가 가장 많이 실패해?', 'most_failing'],
    ['Which API is slowest?', 'slowest'],
    ['what is the slowest step', 'slowest'],
    ['가장 느린 API는 뭐야?', 'slowest'],
    ['Compare my last two runs of Checkout', 'compare'],
    ['Checkout 최근 두 실행 비교해줘', 'compare'],
    ['How is Checkout doing?', 'plan_status'],
    ['last run summary', 'plan_status'],
    ["what's the error rate of my last run?", 'plan_status'],
    ['Checkout 어때?', 'plan_status'],
    ['Review my plans', 'review'],
    ['내 플랜 검토해줘', 'review'],
    ['Write me a poem about the sea', 'unknown'],
    ['What is the capital of France?', 'unknown'],
  ])('%s → %s', (question, kind) => {
    expect(intentOf(question).kind).toBe(kind);
  });

  it.each([
    ['What does p95 mean?', 'p95'],
    ['what is the 99th percentile', 'p99'],
    ['Explain error rate', 'error_rate'],
    ['What is throughput?', 'throughput'],
    ['what does think time mean', 'think_time'],
    ['램프업이 무슨 뜻이야?', 'ramp_up'],
    ['처리량이 뭐야?', 'throughput'],
    ['p95가 무슨 뜻이야?', 'p95'],
  ])('%s is the term %s', (question, term) => {
    expect(intentOf(question)).toEqual({ kind: 'glossary', term });
  });
});

describe('the plan a question names', () => {
  const data = {
    perfPlans: [
      { id: 'p1', name: 'Checkout' },
      { id: 'p2', name: 'Catalog browse' },
      { id: 'p3', name: 'Login flow' },
    ],
    functionalPlans: [{ id: 'f1', name: 'Orders API' }],
  } as unknown as AssistantData;

  it.each([
    ['compare my last two runs of Checkout', 'p1'],
    ['compare my last two runs of chekout', 'p1'],
    ['How is catalog browse doing?', 'p2'],
    ['how is the catalog doing', 'p2'],
    ['Login-Flow 어때?', 'p3'],
    ['orders api 마지막 실행 요약', 'f1'],
  ])('%s → %s', (question, id) => {
    expect(matchPlan(question, data)?.id).toBe(id);
  });

  it('names none when no plan is near enough', () => {
    expect(matchPlan('why was my last run slower?', data)).toBeNull();
    expect(similarity('checkout', 'checkout')).toBe(1);
    expect(similarity('cart', 'checkout')).toBeLessThan(0.6);
  });
});

describe('the language of the answer', () => {
  it('is Korean for Hangul or when asked, else English', () => {
    expect(languageOf('Why was my last run slower?')).toBe('en');
    expect(languageOf('Checkout 어때?')).toBe('ko');
    expect(languageOf('Why slower?', 'ko')).toBe('ko');
    expect(languageOf('왜 느려졌어?', 'en')).toBe('en');
  });
});
