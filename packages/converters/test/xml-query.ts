import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

/** Parses XML strictly (any error fails the test) and answers XPath queries on it. */
export function parseXml(text: string, namespaces: Record<string, string> = {}) {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(text, 'text/xml');
  if (errors.length > 0) throw new Error(`XML does not parse: ${errors.join('; ')}`);
  const select = xpath.useNamespaces(namespaces);
  const nodes = (query: string, context: Node = doc as unknown as Node) => select(query, context) as Node[];
  return {
    doc,
    nodes,
    /** The text of every node the query selects. */
    texts: (query: string, context?: Node) => nodes(query, context).map((n) => n.textContent ?? ''),
    count: (query: string, context?: Node) => nodes(query, context).length,
    attr: (node: Node | undefined, name: string) =>
      (node as Element | undefined)?.getAttribute(name) ?? undefined,
  };
}
