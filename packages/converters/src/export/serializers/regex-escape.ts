import { patternGroupCount } from '@aqa/plan';

/** Literal text as a regular expression, for the engines that read the generated patterns. */

/** JavaScript (k6). */
export function escapeJsRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Perl 5 syntax as JMeter's Jakarta ORO reads it (RegexExtractor, ResponseAssertion, Taurus extract-regexp
 * and assert): every ASCII character that is not a letter or digit is escaped, which Perl reads as itself,
 * and control characters are written as \xNN.
 */
export function escapeOroRegex(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x80 && !/[A-Za-z0-9 ]/.test(char)) out += `\\${char}`;
    else out += char;
  }
  return out;
}

/**
 * The number of capture groups of a JavaScript-compatible pattern, or undefined if JS cannot read it.
 * The pattern is compiled to be judged, never run (docs/adr/0022-linear-time-patterns.md).
 */
export function captureGroupCount(pattern: string): number | undefined {
  try {
    new RegExp(pattern);
  } catch {
    return undefined;
  }
  return patternGroupCount(pattern);
}
