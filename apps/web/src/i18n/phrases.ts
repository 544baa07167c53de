import { PHRASES_EN, phraseText, type Phrase } from '@aqa/plan';
import { useCallback } from 'react';
import { useI18n, type Language } from './index';
import { PHRASES_KO } from './phrases.ko';

/*
 * A sentence the server made, worded in the screen's language (docs/adr/0025-phrases.md): from its code
 * and parameters when it has them and this version knows the code, else the English text stored beside
 * it (a result or message stored before phrases, a tool's own words).
 */

const PHRASES: Record<Language, Readonly<Record<string, string>>> = { en: PHRASES_EN, ko: PHRASES_KO };

export function phraseIn(language: Language, text: string, phrase: Phrase | null | undefined): string {
  if (phrase === null || phrase === undefined) return text;
  return phraseText(phrase, PHRASES[language]) ?? text;
}

/** A message body's parts worded and joined as the server joins them; its text when it has no parts. */
export function bodyIn(language: Language, body: string, phrases: readonly Phrase[] | undefined): string {
  if (phrases === undefined || phrases.length === 0) return body;
  const parts = phrases.map((phrase) => phraseText(phrase, PHRASES[language]));
  return parts.some((part) => part === undefined) ? body : parts.join(' · ');
}

/** `say(text, phrase)`: the sentence in the screen's language. */
export function usePhrase(): (text: string, phrase: Phrase | null | undefined) => string {
  const { language } = useI18n();
  return useCallback((text, phrase) => phraseIn(language, text, phrase), [language]);
}
