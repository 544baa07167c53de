import { userPatternProblem } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import { translateFunctionalMessage } from './messages';

/* The model's refusal of a pattern, in both languages (docs/adr/0022-linear-time-patterns.md). */

describe('a pattern the linear-time engine cannot run', () => {
  it('is said in English as the model says it, and in Korean with the construct translated', () => {
    const message = userPatternProblem('^(?=a)')!;
    expect(translateFunctionalMessage(message, createTranslate('en'))).toBe(message);
    expect(translateFunctionalMessage(message, createTranslate('ko'))).toBe(
      '전방 탐색 (?=…)은(는) 지원되지 않습니다 — 패턴은 선형 시간 엔진(RE2 문법)에서 실행됩니다',
    );
  });

  it("says an invalid pattern with RE2's reason in both languages", () => {
    const message = userPatternProblem('(')!;
    expect(translateFunctionalMessage(message, createTranslate('en'))).toBe(
      'Not a valid pattern: missing closing ): `(` — patterns run on a linear-time engine (RE2 syntax)',
    );
    expect(translateFunctionalMessage(message, createTranslate('ko'))).toBe(
      '올바른 패턴이 아닙니다: missing closing ): `(` — 패턴은 선형 시간 엔진(RE2 문법)에서 실행됩니다',
    );
  });
});
