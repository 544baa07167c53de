import type { Value } from '../script-model';

/**
 * Text for a SoapUI property that SoapUI expands (endpoint, headers, parameters, body, assertion tokens).
 * SoapUI expands "${...}", and "${=...}" runs Groovy, so user text must never form one. Its expander's
 * only escape is a "$" right before "${", which it drops and then reads the "${" as text. So: a "$" that
 * user text puts before "{" is written "$$"; a "$" that would stand right before one of our own
 * expansions cannot be escaped that way (it would disable the expansion) and is written as
 * ${#TestCase#aqa_dollar}, a property that holds "$".
 */
export const DOLLAR_PROPERTY = 'aqa_dollar';

export function soapUiValue(value: Value): string {
  let out = '';
  value.forEach((part, i) => {
    if (part.kind !== 'text') {
      out += `\${#TestCase#${part.ident}}`;
      return;
    }
    const followedByExpansion = i + 1 < value.length;
    const text = part.text;
    // The run of "$" at the end of text that an expansion follows.
    let trailing = text.length;
    if (followedByExpansion) while (trailing > 0 && text[trailing - 1] === '$') trailing--;
    for (let k = 0; k < trailing; k++) {
      const char = text[k];
      out += char === '$' && text[k + 1] === '{' ? '$$' : char;
    }
    for (let k = trailing; k < text.length; k++) out += `\${#TestCase#${DOLLAR_PROPERTY}}`;
  });
  return out;
}

export function soapUiText(text: string): string {
  return soapUiValue([{ kind: 'text', text }]);
}

/** Whether soapUiValue needs the aqa_dollar property. */
export function needsDollarProperty(value: Value): boolean {
  return value.some((part, i) => part.kind === 'text' && i + 1 < value.length && part.text.endsWith('$'));
}
