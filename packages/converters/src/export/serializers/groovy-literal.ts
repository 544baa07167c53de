/**
 * Strings for generated Groovy (SoapUI script steps and assertions): single-quoted, so "$" never
 * interpolates, with backslashes, quotes and control characters escaped. Escaping every backslash also
 * keeps a user's "\u000a" from becoming a line break in Groovy's unicode pre-processing.
 */
export function groovyString(text: string): string {
  let out = "'";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === "'") out += "\\'";
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += char;
  }
  return `${out}'`;
}

/** A Groovy list literal of strings and numbers (JSONPath segments for the JSON helper). */
export function groovyList(values: ReadonlyArray<string | number>): string {
  return `[${values.map((v) => (typeof v === 'number' ? String(v) : groovyString(v))).join(', ')}]`;
}
