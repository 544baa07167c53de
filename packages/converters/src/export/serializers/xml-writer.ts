/**
 * A small XML writer for the JMX and SoapUI projects. Every text and attribute value goes through escape(),
 * so a user value can never open or close an element: & < > " ' are entities, and line breaks and tabs in
 * attributes are character references (an XML parser would otherwise normalise them to spaces).
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string | number | boolean | undefined>;
  /** Either child elements or one text; XML written here never mixes the two. */
  children: XmlElement[] | string;
}

export function el(
  name: string,
  attrs: XmlElement['attrs'] = {},
  children: XmlElement[] | string = [],
): XmlElement {
  return { name, attrs, children };
}

/** Characters XML 1.0 cannot carry at all, not even as a reference. */
const NOT_XML_CONTROL = '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]';
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const NOT_XML = new RegExp(`${NOT_XML_CONTROL}|${LONE_SURROGATE}`, 'g');

/** Whether text holds characters that XML 1.0 cannot represent (they are written as U+FFFD). */
export function hasNonXmlCharacters(text: string): boolean {
  NOT_XML.lastIndex = 0;
  return NOT_XML.test(text);
}

export function escapeXmlText(text: string): string {
  return (
    text
      .replace(NOT_XML, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      .replace(/\r/g, '&#13;')
      // XML 1.1 parsers (and some 1.0 ones) turn these into line feeds; a reference keeps them.
      .replace(/[\u0085\u2028\u2029]/g, (char) => `&#x${char.charCodeAt(0).toString(16)};`)
  );
}

export function escapeXmlAttr(text: string): string {
  return escapeXmlText(text).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/** The document with an XML declaration, two-space indentation and a final newline. */
export function renderXmlDocument(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderXml(root, '')}\n`;
}

export function renderXml(node: XmlElement, indent = ''): string {
  let open = `${indent}<${node.name}`;
  for (const [key, value] of Object.entries(node.attrs)) {
    if (value !== undefined) open += ` ${key}="${escapeXmlAttr(String(value))}"`;
  }
  if (typeof node.children === 'string') {
    return node.children === '' ? `${open}/>` : `${open}>${escapeXmlText(node.children)}</${node.name}>`;
  }
  if (node.children.length === 0) return `${open}/>`;
  const inner = node.children.map((child) => renderXml(child, `${indent}  `)).join('\n');
  return `${open}>\n${inner}\n${indent}</${node.name}>`;
}
