/**
 * A small YAML tokenizer for the script editor's highlighting (docs/reference/02-running.md §2 "Script
 * Content (YAML)"): one line at a time, into comment, key, string, number/boolean, list dash and plain
 * text. It only colours; the Taurus reader alone decides what the text means.
 */

export type TokenKind = 'comment' | 'key' | 'string' | 'literal' | 'dash' | 'plain';

export interface Token {
  kind: TokenKind;
  text: string;
}

const LITERAL = /^(?:-?\d+(?:\.\d+)?(?:ms|s|m|h)?|true|false|null|~|yes|no)$/i;

/** Where a `#` comment starts (outside quotes, after a space or at the line start), or -1. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
      return i;
    }
  }
  return -1;
}

function valueTokens(text: string): Token[] {
  const trimmed = text.trim();
  if (trimmed === '') return text ? [{ kind: 'plain', text }] : [];
  const lead = text.slice(0, text.indexOf(trimmed));
  const tail = text.slice(lead.length + trimmed.length);
  const kind: TokenKind = /^["']/.test(trimmed) ? 'string' : LITERAL.test(trimmed) ? 'literal' : 'plain';
  return [
    ...(lead ? [{ kind: 'plain' as const, text: lead }] : []),
    { kind, text: trimmed },
    ...(tail ? [{ kind: 'plain' as const, text: tail }] : []),
  ];
}

export function tokenizeYamlLine(line: string): Token[] {
  const tokens: Token[] = [];
  const hash = commentStart(line);
  const code = hash < 0 ? line : line.slice(0, hash);
  const dash = /^(\s*)(- )/.exec(code);
  let rest = code;
  if (dash) {
    if (dash[1]) tokens.push({ kind: 'plain', text: dash[1] });
    tokens.push({ kind: 'dash', text: dash[2] ?? '- ' });
    rest = code.slice(dash[0].length);
  }
  const key = /^(\s*)([^\s"'#:][^:]*?|"[^"]*"|'[^']*'):(\s|$)/.exec(rest);
  if (key) {
    if (key[1]) tokens.push({ kind: 'plain', text: key[1] });
    tokens.push({ kind: 'key', text: key[2] ?? '' }, { kind: 'plain', text: `:${key[3] ?? ''}` });
    rest = rest.slice(key[0].length);
  }
  tokens.push(...valueTokens(rest));
  if (hash >= 0) tokens.push({ kind: 'comment', text: line.slice(hash) });
  return tokens;
}
