import { z } from 'zod';
import { PHRASES_EN, type PhraseCode } from './phrases.en';

/*
 * A sentence the server makes for a screen, as a code and its parameters (docs/adr/0025-phrases.md): the
 * web app words it in the user's language from its own resources, the API, the CLI, JUnit and the
 * reports keep the English text made from the same code, beside it. A parameter is a value (a status, a
 * path, a figure already formatted), another phrase (the reason a call failed, inside the rule it
 * failed), or a list of phrases (the thresholds a run broke).
 */

const MAX_PARAM_CHARS = 4000;

const ValueSchema = z.union([z.string().max(MAX_PARAM_CHARS), z.number()]);
const CodeSchema = z.string().min(1).max(100);

/** A phrase inside another: its parameters are values only. */
const InnerPhraseSchema = z.object({
  code: CodeSchema,
  params: z.record(z.string(), ValueSchema),
});

export const PhraseParamSchema = z.union([
  ValueSchema,
  InnerPhraseSchema,
  z.array(InnerPhraseSchema).max(100),
]);
export type PhraseParam = z.infer<typeof PhraseParamSchema>;

export const PhraseSchema = z
  .object({
    code: CodeSchema.describe('Stable code of the sentence, e.g. "judge.status.failed"'),
    params: z.record(z.string(), PhraseParamSchema).describe('Its values, by name'),
  })
  .describe(
    'The sentence beside it as a code and parameters, for screens that word it in the user’s language',
  );
export type Phrase = z.infer<typeof PhraseSchema>;
export type InnerPhrase = z.infer<typeof InnerPhraseSchema>;

/** A sentence in English and as a phrase: what a result or message stores. */
export interface Said {
  text: string;
  phrase: Phrase;
}

type Params = Record<string, PhraseParam>;

/** The phrase `code` with `params`, and its English text. */
export function said(code: PhraseCode, params: Params = {}): Said {
  const phrase = { code, params };
  return { text: phraseText(phrase, PHRASES_EN) ?? code, phrase };
}

/** A sentence whose parameters are values, so its phrase may go inside another's. */
export interface SaidFlat {
  text: string;
  phrase: InnerPhrase;
}

export function saidFlat(code: PhraseCode, params: Record<string, string | number> = {}): SaidFlat {
  const phrase = { code, params };
  return { text: phraseText(phrase, PHRASES_EN) ?? code, phrase };
}

/** A phrase to go inside another (the reason in "…, but {failure}"): its parameters are values. */
export function innerPhrase(code: PhraseCode, params: Record<string, string | number> = {}): InnerPhrase {
  return { code, params };
}

/** A text the server has only in one language (a tool's words, an exception): shown as written. */
export function rawPhrase(text: string): Phrase {
  return { code: 'raw', params: { text } };
}

/**
 * The text of a phrase from a dictionary of templates (code → template), or undefined when the dictionary
 * lacks its code or the code of a phrase inside it: the caller then shows the stored English text.
 *
 * Templates: `{name}` is the value; `{name:lc}` the value with a leading capital lowered ("Connection
 * refused" inside "…, but connection refused"); `{name|one|other}` the word for a count of 1 or another
 * count ("1 call", "3 calls"). A phrase parameter is worded from the same dictionary; a list of phrases
 * is joined with ", ".
 */
export function phraseText(
  phrase: { code: string; params: Params },
  templates: Readonly<Record<string, string>>,
): string | undefined {
  const template = Object.hasOwn(templates, phrase.code) ? templates[phrase.code] : undefined;
  if (template === undefined) return undefined;
  let unknown = false;
  const valueText = (name: string): string => {
    const value = phrase.params[name];
    if (value === undefined) return `{${name}}`;
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    const inner = Array.isArray(value) ? value : [value];
    const texts = inner.map((item) => phraseText(item, templates));
    if (texts.some((text) => text === undefined)) unknown = true;
    return texts.join(', ');
  };
  const text = template.replace(
    /\{(\w+)(?::(lc)|\|([^|}]*)\|([^}]*))?\}/g,
    (_match, name: string, lc?: string, one?: string, other?: string) => {
      if (one !== undefined) return Number(phrase.params[name]) === 1 ? one : (other ?? '');
      const value = valueText(name);
      return lc === undefined ? value : lowerFirst(value);
    },
  );
  return unknown ? undefined : text;
}

/** "Connection refused by …" → "connection refused by …"; "TLS with …" keeps its capitals. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** The English text of a phrase, or undefined for a code this version does not know. */
export function englishText(phrase: Phrase): string | undefined {
  return phraseText(phrase, PHRASES_EN);
}
