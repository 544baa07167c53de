import { FunctionalPlanSchema, PerfPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { translateFunctionalMessage } from '@/features/functional/editor/model/messages';
import { translatePlanMessage } from '@/features/plans/plan-messages';
import { createTranslate } from './index';

/*
 * A text over its length limit says which field and what limit, in the screen's language — never zod's
 * own "expected string to have <=1000000 characters" (issue 24).
 */

const huge = 'x'.repeat(1_000_001);

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return result.error?.issues[0]?.message ?? '';
}

describe('text over its limit', () => {
  it('a load plan body names the field and the limit, in English and Korean', () => {
    const message = firstMessage(
      PerfPlanSchema.safeParse({
        name: 'P',
        urls: [{ url: 'https://a.test', method: 'POST', payload: huge }],
      }),
    );
    expect(message).toBe('Body must be at most 1,000,000 characters');
    expect(translatePlanMessage(message, createTranslate('en'))).toBe(
      'Body must be at most 1,000,000 characters',
    );
    expect(translatePlanMessage(message, createTranslate('ko'))).toBe(
      '본문은(는) 최대 1,000,000자까지 입력할 수 있습니다',
    );
  });

  it('a functional script names the field and the limit, in English and Korean', () => {
    const message = firstMessage(
      FunctionalPlanSchema.safeParse({ test_name: 'S', source: 'script_input', script_content: huge }),
    );
    expect(message).toBe('Script content must be at most 1,000,000 characters');
    expect(message).not.toMatch(/expected string/);
    expect(translateFunctionalMessage(message, createTranslate('ko'))).toBe(
      '스크립트 내용은(는) 최대 1,000,000자까지 입력할 수 있습니다',
    );
  });
});
