import * as xpath from 'xpath';
import { bodyXml, firstLine } from './response-view';

/*
 * An xpath rule's query (docs/reference/02-running.md §3 "Taurus scripts": `assert-xpath` → `xpath`)
 * evaluated on a body read as XML (response-view.ts); a body it cannot read as a document (no root
 * element, tags that do not close) is not XML, said in words.
 */

/** What the query gave: the nodes it selected (the first one's text), or its value. */
export type XPathValue =
  | { kind: 'nodes'; count: number; first: string | null }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string };

export type XPathOutcome = { value: XPathValue } | { problem: 'not-xml' | 'not-xpath'; reason: string };

export function evaluateXPath(expression: string, response: { body: string }): XPathOutcome {
  const read = bodyXml(response);
  if ('notXml' in read) return { problem: 'not-xml', reason: read.notXml };
  const document = read.document;
  let result: unknown;
  try {
    result = xpath.select(expression, document);
  } catch (error) {
    return { problem: 'not-xpath', reason: firstLine(error) };
  }
  if (Array.isArray(result)) {
    const first = (result as Node[])[0];
    return {
      value: {
        kind: 'nodes',
        count: result.length,
        first: first === undefined ? null : (first.textContent ?? first.nodeValue ?? ''),
      },
    };
  }
  if (typeof result === 'boolean') return { value: { kind: 'boolean', value: result } };
  if (typeof result === 'number') return { value: { kind: 'number', value: result } };
  if (typeof result === 'string') return { value: { kind: 'string', value: result } };
  // A single node (the package's select1 form).
  const node = result as Node | null;
  return {
    value: {
      kind: 'nodes',
      count: node === null ? 0 : 1,
      first: node === null ? null : (node.textContent ?? ''),
    },
  };
}

/** XPath's own boolean(): a node selected, true, a non-empty string, a number other than 0 and NaN. */
export function xpathHolds(value: XPathValue): boolean {
  switch (value.kind) {
    case 'nodes':
      return value.count > 0;
    case 'boolean':
      return value.value;
    case 'number':
      return value.value !== 0 && !Number.isNaN(value.value);
    case 'string':
      return value.value !== '';
  }
}
