import { JSONPath } from 'jsonpath-plus';
import { checkJsonPathFilters, JsonPathFilterScript } from './json-path-filter';

/** A compiled JSONPath: returns the first match, or undefined when nothing matches. */
export type JsonPathQuery = (json: unknown) => unknown;

const SIMPLE_SEGMENT = /^(?:\.([A-Za-z_$][\w$-]*)|\[(-?\d+)\]|\['([^'\\]*)'\]|\["([^"\\]*)"\])/;

/**
 * Compiles a JSONPath. Plain member/index chains (`$.data.items[0].id`, `$['a b'][-1]`), which is
 * what nearly every plan uses, become a direct property walk: no allocation per request. Anything
 * else (wildcards, filters, recursive descent) goes through jsonpath-plus, its filters read by
 * json-path-filter.ts; a path that cannot be judged (jsonPathProblem) throws JsonPathFilterError here,
 * before any answer.
 */
export function compileJsonPath(path: string): JsonPathQuery {
  let p = path.trim();
  if (p === '' || p === '$') return (json) => json;
  if (!p.startsWith('$')) p = p.startsWith('.') || p.startsWith('[') ? `$${p}` : `$.${p}`;
  const keys: (string | number)[] = [];
  let rest = p.slice(1);
  while (rest.length > 0) {
    const m = SIMPLE_SEGMENT.exec(rest);
    if (!m) return generalQuery(p);
    if (m[1] !== undefined) keys.push(m[1]);
    else if (m[2] !== undefined) keys.push(Number(m[2]));
    else keys.push(m[3] ?? m[4] ?? '');
    rest = rest.slice(m[0].length);
  }
  return (json) => {
    let cur: unknown = json;
    for (let i = 0; i < keys.length; i++) {
      if (cur === null || typeof cur !== 'object') return undefined;
      const k = keys[i]!;
      if (typeof k === 'number') {
        if (!Array.isArray(cur)) return undefined;
        cur = (cur as unknown[])[k < 0 ? cur.length + k : k];
      } else cur = (cur as Record<string, unknown>)[k];
    }
    return cur;
  };
}

function generalQuery(path: string): JsonPathQuery {
  checkJsonPathFilters(path);
  return (json) => {
    if (json === null || typeof json !== 'object') return undefined;
    // A filter that throws on one value (`@.a.b` where a value has no `a`) does not select it, as a
    // filter comparing a missing member selects nothing in every JSONPath dialect.
    const found: unknown = JSONPath({
      path,
      json,
      wrap: true,
      eval: JsonPathFilterScript,
      ignoreEvalErrors: true,
    });
    return Array.isArray(found) ? (found[0] as unknown) : undefined;
  };
}

/** The text form of a JSON value for comparisons and variables: strings as-is, the rest as JSON. */
export function jsonValueText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
