/*
 * Taurus's scalar forms: durations ("1h2m3s", "1s500ms", "90" = seconds) and JMeter text with
 * ${variables} and ${__functions(...)}, which become the model's {{name}} templates
 * (docs/reference/02-running.md §3 "Taurus scripts"; docs/design.md §9).
 */

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1, '': 1000 };
/*
 * Pieces each with a unit, the last one's optional. Every piece but the last ends in a letter, so a run
 * of digits reads one way only: "(\d+…unit?)+" tried every split of it, 2ⁿ for n digits
 * (docs/adr/0022-linear-time-patterns.md).
 */
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|d|h|m|s))*\d+(?:\.\d+)?(?:ms|d|h|m|s)?$/i;
const PIECE = /(\d+(?:\.\d+)?)(ms|d|h|m|s)?/gi;

/**
 * Milliseconds of a Taurus duration: a number (seconds) or pieces such as "1m30s", "1s500ms", "2.5s".
 * Undefined when the value is no duration (a ${__P(...)} property, a word).
 */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/\s+/g, '');
  if (text === '' || !DURATION.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(PIECE)) {
    total += Number(match[1]) * (UNIT_MS[(match[2] ?? '').toLowerCase()] ?? 1000);
  }
  return Number.isFinite(total) ? total : undefined;
}

/** The text of a scalar as Taurus writes it into JMeter: numbers and booleans as written. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return undefined;
}

/** A Taurus yes/no setting: true written as a YAML boolean or as the text "true"; left out, `fallback`. */
export function taurusFlag(value: unknown, fallback = false): boolean {
  return value === undefined ? fallback : value === true || value === 'true';
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export interface TemplateText {
  /** The text with ${name} as {{name}}. */
  text: string;
  /** JMeter functions (${__Random(0,9)}) and other ${...} forms the model cannot evaluate, sent as written. */
  unsupported: string[];
  /** The variable names it uses. */
  names: string[];
}

/**
 * JMeter text → the model's template text. JMeter parses a string only when it holds "${"; it then
 * un-escapes "\\", "\$", "\," and "\}", and ${__char(36)} is a "$" (how plan-to-taurus.ts writes a literal "${").
 * ${name} becomes {{name}}; ${__urlencode(${name})} becomes {{name}}; any other function stays as
 * written and is reported.
 */
export function jmeterToTemplate(text: string): TemplateText {
  const unsupported: string[] = [];
  const names: string[] = [];
  if (!text.includes('${')) return { text, unsupported, names };
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    // JMeter's parser keeps "\" before anything but $ , \ and }.
    if (char === '\\' && '$,\\}'.includes(text[i + 1] ?? 'x')) {
      out += text[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (char === '$' && text[i + 1] === '{') {
      const end = closingBrace(text, i + 2);
      if (end === -1) {
        out += text.slice(i);
        break;
      }
      const inner = text.slice(i + 2, end);
      const charCode = /^__char\((\d{1,7})\)$/.exec(inner);
      const encoded = /^__urlencode\(\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}\)$/.exec(inner);
      if (charCode) out += String.fromCodePoint(Math.min(Number(charCode[1]), 0x10ffff));
      else if (encoded?.[1]) {
        out += `{{${encoded[1]}}}`;
        names.push(encoded[1]);
      } else if (IDENT.test(inner) && !inner.startsWith('__')) {
        out += `{{${inner}}}`;
        names.push(inner);
      } else {
        out += `\${${inner}}`;
        unsupported.push(`\${${inner}}`);
      }
      i = end + 1;
      continue;
    }
    out += char;
    i++;
  }
  return { text: out, unsupported, names };
}

/** The index of the "}" that closes a "${" opened before `from`, counting nested "${...}". */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A YAML path segment: `.key`, or `["key"]` when the key is not a plain word. */
export function pathKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
