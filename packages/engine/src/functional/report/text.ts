/*
 * Text made safe for the report formats (docs/design.md §9): a report quotes what a target answered,
 * so every value is escaped where it is written, and characters XML 1.0 cannot hold are dropped.
 */

/** Characters XML 1.0 forbids anywhere, even escaped: C0 controls but tab, LF and CR; lone surrogates; U+FFFE/F. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for XML character data: escaped, and with the characters XML cannot hold removed. */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
}

/** Text for a double-quoted XML attribute; line breaks and tabs kept as references (a parser would fold them). */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(
    /["\n\r\t]/g,
    (c) => ({ '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c] ?? c,
  );
}

/** Text for HTML content or a quoted attribute value. */
export function htmlText(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(
      /[<>&"']/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
    );
}

/** Milliseconds as a person reads them: "12 ms", "1.25 s". */
export function msText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
