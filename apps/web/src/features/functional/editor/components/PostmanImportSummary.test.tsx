import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import { postmanCountsLine } from './PostmanImportSummary';

const counts = (tests: number, rules: number, scripts: number, left = 0) => ({
  tests,
  rules,
  scripts,
  leftOut: Array.from({ length: left }, (_, i) => ({
    request: 'Login',
    line: i + 1,
    reason: 'does not parse',
  })),
});

describe('postmanCountsLine', () => {
  it("says the issue's line word for word, in English and Korean", () => {
    expect(postmanCountsLine(createTranslate('en'), counts(42, 40, 2))).toBe(
      '42 tests: 40 rules, 2 scripts, 0 left out',
    );
    expect(postmanCountsLine(createTranslate('ko'), counts(42, 40, 2))).toBe(
      '테스트 42개: 규칙 40개, 스크립트 2개, 제외 0개',
    );
  });

  it('says one test, rule or script in the singular', () => {
    expect(postmanCountsLine(createTranslate('en'), counts(1, 1, 0, 1))).toBe(
      '1 test: 1 rule, 0 scripts, 1 left out',
    );
    expect(postmanCountsLine(createTranslate('en'), counts(6, 1, 5))).toBe(
      '6 tests: 1 rule, 5 scripts, 0 left out',
    );
    expect(postmanCountsLine(createTranslate('en'), counts(3, 2, 1))).toBe(
      '3 tests: 2 rules, 1 script, 0 left out',
    );
  });
});
