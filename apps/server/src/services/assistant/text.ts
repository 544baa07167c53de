import type { AssistantLanguage } from '@aqa/plan';

/* Words and numbers as James writes them, in English or Korean (docs/adr/0010-english-and-korean.md). */

export type Lang = AssistantLanguage;

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;

/** Korean when asked for, or when the question is written in Hangul; else English. */
export function languageOf(question: string, asked?: Lang): Lang {
  if (asked !== undefined) return asked;
  return HANGUL.test(question) ? 'ko' : 'en';
}

/** The text in the answer's language. */
export function say(lang: Lang, en: string, ko: string): string {
  return lang === 'ko' ? ko : en;
}

/** "1 call", "2 calls": an English count with its noun in the singular for one (Korean has no plural). */
export function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A figure's value as stored: two decimals at most. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A number as read in a sentence: whole from 100 up, one decimal below. */
export function num(value: number): string {
  const abs = Math.abs(value);
  const rounded = abs >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return rounded.toLocaleString('en-US');
}

/** "+50 %", "−12.5 %". */
export function signedPercent(value: number): string {
  return `${value >= 0 ? '+' : '−'}${num(Math.abs(value))} %`;
}

/** "+50 ms", "−3 req/s". */
export function signed(value: number, unit: string): string {
  return `${value >= 0 ? '+' : '−'}${num(Math.abs(value))} ${unit}`;
}

/** Change from `base` to `candidate` in percent of `base`; null when base is 0. */
export function percentChange(base: number, candidate: number): number | null {
  return base === 0 ? null : ((candidate - base) / base) * 100;
}

/** "2030-01-01 10:00:05 UTC" from an ISO time: with its seconds, so runs of one minute differ (issue 24). */
export function when(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}
