/**
 * The JSONPath subset that the k6, Locust and SoapUI scripts evaluate themselves (those tools have no
 * JSONPath engine): $ . [n] [-n] ['key'] ["key"] * [*] and ..key. JMeter and Taurus use Jayway JSONPath,
 * which reads the full syntax, so they get the expression as written. A path may leave out the leading $
 * ("data.id"); it is normalised to "$.data.id".
 */

export type JsonPathSegment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'descendant'; key: string };

export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

export function normalizeJsonPath(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed.startsWith('$')) return trimmed;
  if (trimmed.startsWith('[') || trimmed.startsWith('.')) return `$${trimmed}`;
  return `$.${trimmed}`;
}

const NAME = /^[^.[\]\s()?@,:'"*]+/;

/** @throws JsonPathError naming the part it cannot read. */
export function parseJsonPath(expression: string): JsonPathSegment[] {
  const path = normalizeJsonPath(expression);
  const segments: JsonPathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const rest = path.slice(i);
    if (rest.startsWith('..')) {
      const name = NAME.exec(rest.slice(2));
      if (!name) throw unsupported(path, rest);
      segments.push({ kind: 'descendant', key: name[0] });
      i += 2 + name[0].length;
    } else if (rest.startsWith('.*')) {
      segments.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1));
      if (!name) throw unsupported(path, rest);
      segments.push({ kind: 'key', key: name[0] });
      i += 1 + name[0].length;
    } else if (rest.startsWith('[')) {
      const bracket = /^\[\s*(?:(\*)|(-?\d+)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\]/.exec(rest);
      if (!bracket) throw unsupported(path, rest);
      if (bracket[1]) segments.push({ kind: 'wildcard' });
      else if (bracket[2] !== undefined) segments.push({ kind: 'index', index: Number(bracket[2]) });
      else segments.push({ kind: 'key', key: (bracket[3] ?? bracket[4] ?? '').replace(/\\(.)/g, '$1') });
      i += bracket[0].length;
    } else {
      throw unsupported(path, rest);
    }
  }
  return segments;
}

function unsupported(path: string, rest: string): JsonPathError {
  return new JsonPathError(
    `JSONPath "${path}" uses syntax this tool's script cannot evaluate at "${rest.slice(0, 20)}" (supported: $ .key ['key'] [n] [*] ..key)`,
  );
}

/** Segments as plain data for a generated script: ["k","name"], ["i",0], ["*"], ["..","name"]. */
export function segmentsAsData(
  segments: readonly JsonPathSegment[],
): Array<[string] | [string, string | number]> {
  return segments.map((s) => {
    switch (s.kind) {
      case 'key':
        return ['k', s.key];
      case 'index':
        return ['i', s.index];
      case 'wildcard':
        return ['*'];
      case 'descendant':
        return ['..', s.key];
    }
  });
}
