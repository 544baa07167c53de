/**
 * How JMeter and SoapUI read the strings the generators write, ported from their sources so the tests can
 * prove that escaped user text comes back unchanged (and runs no function) without starting the tools.
 */

/**
 * JMeter's FunctionParser.compileString (org.apache.jmeter.engine.util): "\" escapes "$", "," and "\";
 * "${" starts a function or variable. Returns the text with every reference evaluated by `evaluate`, and
 * whether the string was dynamic (JMeter uses a non-dynamic string as written, escapes included).
 */
export function jmeterEvaluate(value: string, evaluate: (reference: string) => string): string {
  const parts: Array<string | { reference: string }> = [];
  let buffer = '';
  let previous = ' ';
  for (let i = 0; i < value.length; i++) {
    const char = value[i] ?? '';
    if (char === '\\') {
      const next = value[i + 1];
      if (next === undefined) break;
      i++;
      if (next !== '$' && next !== ',' && next !== '\\') buffer += '\\';
      buffer += next;
      previous = ' ';
    } else if (char === '{' && previous === '$') {
      buffer = buffer.slice(0, -1);
      if (buffer) parts.push(buffer);
      buffer = '';
      let depth = 1;
      let reference = '';
      for (i++; i < value.length && depth > 0; i++) {
        const c = value[i] ?? '';
        if (c === '{' && value[i - 1] === '$') depth++;
        if (c === '}') depth--;
        if (depth > 0) reference += c;
      }
      i--;
      parts.push({ reference });
      previous = ' ';
    } else {
      buffer += char;
      previous = char;
    }
  }
  if (buffer) parts.push(buffer);
  const dynamic = parts.some((p) => typeof p !== 'string');
  if (!dynamic) return value;
  return parts.map((p) => (typeof p === 'string' ? p : evaluate(p.reference))).join('');
}

/** The JMeter functions and variables the generators use, for jmeterEvaluate. */
export function jmeterReferences(variables: Record<string, string> = {}): (reference: string) => string {
  return (reference) => {
    if (reference === '__char(36)') return '$';
    const urlencode = /^__urlencode\((.*)\)$/.exec(reference);
    if (urlencode) {
      const inner = jmeterEvaluate(urlencode[1] ?? '', jmeterReferences(variables));
      return encodeURIComponent(inner).replace(/%20/g, '+');
    }
    if (reference in variables) return variables[reference] ?? '';
    throw new Error(`JMeter would evaluate \${${reference}}`);
  };
}

/**
 * SoapUI's PropertyExpander.expand (com.eviware.soapui.model.propertyexpansion): "$${" is the escape of
 * "${"; "${name}" is looked up with `resolve` (undefined leaves nothing, as SoapUI does).
 */
export function soapUiExpand(content: string, resolve: (name: string) => string | undefined): string {
  let ix = content.indexOf('${');
  if (ix === -1) return content;
  let out = '';
  let lastIx = 0;
  while (ix !== -1) {
    if (ix > lastIx && content[ix - 1] === '$') {
      out += content.slice(lastIx, ix - 1);
      lastIx = ix;
      ix = content.indexOf('${', lastIx + 1);
      continue;
    }
    if (ix > lastIx) out += content.slice(lastIx, ix);
    const end = content.indexOf('}', ix + 2);
    if (end === -1) break;
    const nested = content.lastIndexOf('${', end);
    if (nested !== ix) {
      content =
        content.slice(0, nested) +
        soapUiExpand(content.slice(nested, end + 1), resolve) +
        content.slice(end + 1);
      lastIx = ix;
      continue;
    }
    const value = resolve(content.slice(ix + 2, end));
    if (value !== undefined) out += value === content ? value : soapUiExpand(value, resolve);
    lastIx = end + 1;
    ix = content.indexOf('${', lastIx);
  }
  if (lastIx < content.length) out += content.slice(lastIx);
  return out;
}
