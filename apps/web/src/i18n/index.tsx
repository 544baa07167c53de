import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { storage } from '@/lib/storage';
import { en, type MessageKey, type Messages } from './en';
import { ko } from './ko';

export type { MessageKey, Messages } from './en';

export const LANGUAGES = ['en', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_STORAGE_KEY = 'language';

export const DICTIONARIES: Record<Language, Messages> = { en, ko };

/** BCP 47 locale used for Intl formatting in each language. */
export const LOCALES: Record<Language, string> = { en: 'en-US', ko: 'ko-KR' };

export type TranslateValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'ko';
}

/** The stored choice, else the browser's language on a first visit (ko* → Korean, anything else → English). */
export function detectLanguage(): Language {
  const stored = storage.get(LANGUAGE_STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? '' : (navigator.language ?? '');
  return browser.toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

export function interpolate(template: string, values?: TranslateValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}

export function createTranslate(language: Language): Translate {
  const dictionary = DICTIONARIES[language];
  return (key, values) => interpolate(dictionary[key], values);
}

/** Today's weekday in the given language, e.g. "Monday" or "월요일". */
export function weekdayName(language: Language, date: Date = new Date()): string {
  return new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long' }).format(date);
}

interface I18nValue {
  language: Language;
  locale: string;
  setLanguage: (language: Language) => void;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({
  children,
  initialLanguage,
}: {
  children: ReactNode;
  initialLanguage?: Language;
}) {
  const [language, setLanguageState] = useState<Language>(() => initialLanguage ?? detectLanguage());

  const setLanguage = useCallback((next: Language) => {
    storage.set(LANGUAGE_STORAGE_KEY, next);
    setLanguageState(next);
  }, []);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const value = useMemo<I18nValue>(
    () => ({ language, locale: LOCALES[language], setLanguage, t: createTranslate(language) }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>');
  return value;
}

/** The translate function of the active language. */
export function useT(): Translate {
  return useI18n().t;
}
