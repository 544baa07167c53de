import type { Value } from '../script-model';

/**
 * Text for a JMeter property. JMeter runs every property through its function parser, so "${...}" in user
 * text would call a JMeter function (${__groovy(...)} runs code). Its parser un-escapes \\ and \$, but only
 * in strings that also hold a real function or variable; plain strings are used as they are. So: text with
 * no "${" and no variable stays as it is; otherwise every backslash is doubled and every "$" becomes
 * ${__char(36)}, which always leaves the string dynamic and so always un-escaped.
 */

/** A piece of a JMeter string: user text, or an expression this generator wrote (a variable or function). */
export type JmeterPiece = { text: string } | { expression: string };

export function jmeterString(pieces: readonly JmeterPiece[]): string {
  const dynamic = pieces.some((p) => 'expression' in p || p.text.includes('${'));
  return pieces
    .map((p) => ('expression' in p ? p.expression : dynamic ? escapeJmeterText(p.text) : p.text))
    .join('');
}

export function jmeterText(text: string): string {
  return jmeterString([{ text }]);
}

function escapeJmeterText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\$/g, '${__char(36)}');
}

/** A plan value as JMeter pieces: variables and sequence numbers become ${ident}. */
export function jmeterPieces(value: Value): JmeterPiece[] {
  return value.map((part) =>
    part.kind === 'text' ? { text: part.text } : { expression: `\${${part.ident}}` },
  );
}

export function jmeterValue(value: Value): string {
  return jmeterString(jmeterPieces(value));
}

/** Query pairs as "name=value&…" for a JMeter path: text percent-encoded now, variables by __urlencode. */
export function jmeterQueryPieces(pairs: ReadonlyArray<{ name: string; value: Value }>): JmeterPiece[] {
  const pieces: JmeterPiece[] = [];
  pairs.forEach(({ name, value }, i) => {
    pieces.push({ text: `${i > 0 ? '&' : ''}${encodeURIComponent(name)}=` });
    for (const part of value) {
      if (part.kind === 'text') pieces.push({ text: encodeURIComponent(part.text) });
      else pieces.push({ expression: `\${__urlencode(\${${part.ident}})}` });
    }
  });
  return pieces;
}
