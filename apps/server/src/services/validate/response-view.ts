import { DOMParser } from '@xmldom/xmldom';
import { JsonPathFilterScript } from '@aqa/engine/json-path-filter';
import { JSONPath } from 'jsonpath-plus';
import * as xpath from 'xpath';
import type { ReceivedResponse } from './http-exchange';

/** A check could not look into the body (not JSON, not XML, a bad expression); the message says which. */
export class CheckError extends Error {
  override name = 'CheckError';
}

const NOT_PARSED = Symbol('not parsed');

/**
 * One response as the checks read it. The text, JSON and XML forms are made on first use and shared
 * by the assertion, the validation items and the extraction of the same response.
 */
export class ResponseView {
  private textForm: string | undefined;
  private jsonForm: unknown = NOT_PARSED;
  private xmlForm: Node | CheckError | typeof NOT_PARSED = NOT_PARSED;

  constructor(readonly response: ReceivedResponse) {}

  get status(): number {
    return this.response.status;
  }

  get text(): string {
    this.textForm ??= this.response.body.toString('utf8');
    return this.textForm;
  }

  /** The parsed body; throws CheckError when it is not JSON. */
  get json(): unknown {
    if (this.jsonForm === NOT_PARSED) {
      try {
        this.jsonForm = JSON.parse(this.text) as unknown;
      } catch {
        this.jsonForm = new CheckError(
          this.response.truncated
            ? 'the body was cut at the size limit, so it is not whole JSON'
            : 'the body is not JSON',
        );
      }
    }
    if (this.jsonForm instanceof CheckError) throw this.jsonForm;
    return this.jsonForm;
  }

  /** The parsed body as XML; throws CheckError when it is not XML. */
  get xml(): Node {
    if (this.xmlForm === NOT_PARSED) {
      try {
        this.xmlForm = new DOMParser({ onError: () => undefined }).parseFromString(
          this.text,
          'text/xml',
        ) as unknown as Node;
      } catch {
        this.xmlForm = new CheckError('The body is not XML');
      }
    }
    if (this.xmlForm instanceof CheckError) throw this.xmlForm;
    return this.xmlForm;
  }

  /** Every value the JSONPath matches, in document order (none: an empty list). */
  jsonPath(path: string): unknown[] {
    return jsonPathMatches(this.json, path);
  }

  /** The text of the first node the XPath selects, or undefined when it selects nothing. */
  xpathText(expression: string): string | undefined {
    let result: xpath.SelectReturnType;
    try {
      result = xpath.select(expression, this.xml);
    } catch (cause) {
      const reason = cause instanceof Error ? `: ${cause.message}` : '';
      throw new CheckError(`Invalid XPath ${expression}${reason}`, { cause });
    }
    // Node sets give their first node; count(), string() and the like give a number, text or boolean.
    const first = Array.isArray(result) ? result[0] : result;
    if (first === undefined || first === null) return undefined;
    if (typeof first !== 'object') return String(first);
    return first.textContent ?? first.nodeValue ?? undefined;
  }
}

/** "data.id", ".data.id" and "[0]" mean "$.data.id", "$.data.id" and "$[0]", as in the generators. */
export function normalizeJsonPath(path: string): string {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed.startsWith('$')) return trimmed || '$';
  return trimmed.startsWith('.') || trimmed.startsWith('[') ? `$${trimmed}` : `$.${trimmed}`;
}

export function jsonPathMatches(json: unknown, path: string): unknown[] {
  const normalized = normalizeJsonPath(path);
  if (normalized === '$') return [json];
  if (json === null || typeof json !== 'object') return [];
  let found: unknown;
  try {
    // Filter expressions ([?(@.id==2)]) are read by the engine's filter evaluator: no eval, no method
    // but a few linear ones, patterns on the linear-time engine (docs/adr/0022-linear-time-patterns.md).
    found = JSONPath({ path: normalized, json, wrap: true, eval: JsonPathFilterScript });
  } catch (cause) {
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    throw new CheckError(`Invalid JSONPath ${path}${reason}`, { cause });
  }
  return Array.isArray(found) ? (found as unknown[]) : [];
}

/** A JSON value as text for comparisons and variables: strings as they are, anything else as JSON. */
export function jsonValueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
