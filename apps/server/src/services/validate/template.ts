import { renderTemplate, tokenizeTemplate } from '@aqa/plan';

/** This validation pass's variables: what earlier steps extracted, by extractName. */
export type Variables = Record<string, string>;

/**
 * Expands `{{name}}` with the pass's variables and every `{{sequence_number,N}}` with 1: a validation
 * pass is one user's first iteration. A variable no step has set yet stays as written ("{{token}}"),
 * as the template contract of @aqa/plan says.
 */
export function renderForValidation(text: string, variables: Readonly<Variables>): string {
  if (!text.includes('{{')) return text;
  const parts = tokenizeTemplate(text);
  const sequences = new Map<number, number>();
  for (const part of parts) if (part.kind === 'sequence') sequences.set(part.max, 1);
  return renderTemplate(parts, variables, sequences);
}
