/**
 * Values for generated JavaScript (k6). JSON is a subset of JavaScript except for U+2028 and U+2029, which
 * end a line in older engines (goja among them) and so could end a string literal; they are escaped too.
 */
export function jsLiteral(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('jsLiteral: value has no JSON form');
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function jsString(text: string): string {
  return jsLiteral(text);
}
