import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

/*
 * An xpath rule's query (docs/reference/02-running.md §3 "Taurus scripts": `assert-xpath` → `xpath`)
 * evaluated on a body read as XML. @xmldom/xmldom reads no external entity or DTD file, so a body
 * cannot make the runner open a file or a URL; a body it cannot read as a document (no root element,
 * tags that do not close) is not XML, said in words.
 */

/** What the query gave: the nodes it selected (the first one's text), or its value. */
export type XPathValue =
  | { kind: 'nodes'; count: number; first: string | null }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string };

export type XPathOutcome = { value: XPathValue } | { problem: 'not-xml' | 'not-xpath'; reason: string };

export function evaluateXPath(expression: string, body: string): XPathOutcome {
  let document: Node;
  let fatal: string | undefined;
  // xmldom throws after reporting a fatal error; warnings and recoverable errors (an unknown entity)
  // are left as it reads them.
  const onError = (level: 'warning' | 'error' | 'fatalError', message: string): void => {
    if (level === 'fatalError') fatal ??= message;
  };
  try {
    document = new DOMParser({ onError }).parseFromString(body, 'text/xml') as unknown as Node;
  } catch (error) {
    return { problem: 'not-xml', reason: fatal ?? reason(error) };
  }
  if (fatal !== undefined) return { problem: 'not-xml', reason: fatal };
  let result: unknown;
  try {
    result = xpath.select(expression, document);
  } catch (error) {
    return { problem: 'not-xpath', reason: reason(error) };
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

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}
