/**
 * Values for generated Python (Locust). Strings are double-quoted with every backslash, quote and
 * non-printable character escaped, so no user text can end the literal, start a new line of code, or
 * form an escape of its own.
 */

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

export function pyString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\x${hex(code, 2)}`;
    else if (code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      out += `\\u${hex(code, 4)}`;
    else out += char;
  }
  return `${out}"`;
}

export function pyLiteral(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('pyLiteral: only finite numbers');
    return String(value);
  }
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, v]) => `${pyString(key)}: ${pyLiteral(v)}`)
    .join(', ')}}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}
