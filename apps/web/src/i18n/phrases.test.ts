import { PHRASES_EN, said } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { bodyIn, phraseIn } from './phrases';
import { PHRASES_KO } from './phrases.ko';

/* The web app's wording of the server's phrases (docs/adr/0025-phrases.md). */

const names = (template: string) =>
  new Set([...template.matchAll(/\{(\w+)(?::lc)?\}/g)].map((match) => match[1]));

describe('phrases in Korean', () => {
  it('every Korean template uses the values its English one shows', () => {
    for (const [code, english] of Object.entries(PHRASES_EN)) {
      const korean = PHRASES_KO[code as keyof typeof PHRASES_EN];
      expect([code, [...names(korean)].sort()]).toEqual([code, [...names(english)].sort()]);
    }
  });

  it('words a known phrase, and falls back to the stored English for none or an unknown code', () => {
    const judged = said('judge.status.failed', { expected: '201', actual: '500' });
    expect(phraseIn('ko', judged.text, judged.phrase)).toBe('예상 상태 201, 실제 500');
    expect(phraseIn('en', judged.text, judged.phrase)).toBe('expected status 201, got 500');
    expect(phraseIn('ko', 'older English', undefined)).toBe('older English');
    expect(phraseIn('ko', 'newer English', { code: 'judge.newer', params: {} })).toBe('newer English');
    expect(bodyIn('ko', 'a · b', [judged.phrase, { code: 'judge.newer', params: {} }])).toBe('a · b');
  });
});
