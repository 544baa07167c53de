import type { TextBoundaries } from '@aqa/plan';

/**
 * A text extraction (step-rules.ts in @aqa/plan) as a regular expression whose group 1 is the value, for
 * the tools that extract with regexes. `escape` writes literal text in the tool's regex dialect.
 */
export function textExtractionPattern(
  boundaries: Exclude<TextBoundaries, { kind: 'whole-body' }>,
  escape: (text: string) => string,
): string {
  if (boundaries.kind === 'rest-of-line') return `${escape(boundaries.left)}([^\\r\\n]*)`;
  // A * at the end takes the rest of the body; otherwise the shortest text up to the right boundary.
  if (boundaries.right === '') return `${escape(boundaries.left)}([\\s\\S]*)`;
  return `${escape(boundaries.left)}([\\s\\S]*?)${escape(boundaries.right)}`;
}
