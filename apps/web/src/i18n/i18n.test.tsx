import { REGISTRATION_ERRORS, type RegistrationErrorCode } from '@aqa/plan';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { en } from './en';
import { registrationErrorText } from './error-messages';
import {
  createTranslate,
  detectLanguage,
  DICTIONARIES,
  I18nProvider,
  LANGUAGES,
  useI18n,
  weekdayName,
} from './index';
import { ko } from './ko';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dictionaries', () => {
  it('have the same keys in every language', () => {
    const keys = Object.keys(en).sort();
    for (const language of LANGUAGES) expect(Object.keys(DICTIONARIES[language]).sort()).toEqual(keys);
  });

  it('have a non-empty text for every key in every language', () => {
    for (const language of LANGUAGES) {
      for (const [key, text] of Object.entries(DICTIONARIES[language])) {
        expect(text.trim(), `${language}: ${key}`).not.toBe('');
      }
    }
  });

  it('use the same {placeholders} in Korean as in English', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(ko[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('translate every registration error code, with the English text equal to the shared model', () => {
    const t = createTranslate('en');
    for (const code of Object.keys(REGISTRATION_ERRORS) as RegistrationErrorCode[]) {
      expect(registrationErrorText(code, t)).toBe(REGISTRATION_ERRORS[code]);
      expect(registrationErrorText(code, createTranslate('ko'))).not.toBe(REGISTRATION_ERRORS[code]);
    }
  });

  it('keep the spec texts in English', () => {
    expect(en['app.tagline']).toBe('Test Smarter. Test Faster. Test by Anyone.');
    expect(en['signIn.title']).toBe('Welcome Back');
    expect(en['signIn.submitting']).toBe('Signing in...');
    expect(en['register.submitting']).toBe('Creating account...');
    expect(en['dashboard.loading']).toBe('Loading dashboard...');
  });
});

describe('language', () => {
  it('follows the browser on a first visit and the stored choice afterwards', () => {
    const spy = vi.spyOn(navigator, 'language', 'get');
    spy.mockReturnValue('ko-KR');
    expect(detectLanguage()).toBe('ko');
    spy.mockReturnValue('en-GB');
    expect(detectLanguage()).toBe('en');
    localStorage.setItem('language', 'ko');
    expect(detectLanguage()).toBe('ko');
    spy.mockRestore();
  });

  it('names the weekday in the active language', () => {
    const monday = new Date(2025, 0, 6);
    expect(weekdayName('en', monday)).toBe('Monday');
    expect(weekdayName('ko', monday)).toBe('월요일');
    expect(createTranslate('en')('signIn.happyWeekday', { weekday: weekdayName('en', monday) })).toBe(
      'Happy Monday!!',
    );
  });

  it('switches the whole UI at once, stores the choice and sets <html lang>', () => {
    function Probe() {
      const { t, setLanguage } = useI18n();
      return (
        <button type="button" onClick={() => setLanguage('ko')}>
          {t('header.logout')}
        </button>
      );
    }
    render(
      <I18nProvider initialLanguage="en">
        <Probe />
      </I18nProvider>,
    );
    expect(document.documentElement.lang).toBe('en');
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button')).toHaveTextContent('로그아웃');
    expect(localStorage.getItem('language')).toBe('ko');
    expect(document.documentElement.lang).toBe('ko');
  });
});
