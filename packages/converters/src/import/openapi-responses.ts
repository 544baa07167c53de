import { isRecord } from './import-model';
import { MAX_NESTING } from './nesting';
import type { RefContext, RefResolver } from './openapi-refs';

/*
 * What an operation answers when it succeeds (docs/design.md §9): the status its document lists first
 * among the 2xx responses, and the JSON Schema of that response's JSON body with every $ref inlined, so
 * a functional test's `schema` rule can check a body on its own, with no document beside it.
 */

/** Which OpenAPI a schema is written in: 3.0 and Swagger 2 use draft-4 habits, 3.1 is JSON Schema itself. */
export type SchemaDialect = 'swagger2' | 'openapi30' | 'openapi31';

/**
 * How much inlined schema is written before giving up, in characters of JSON. A functional rule holds up
 * to a million (packages/plan/src/functional/validation.ts); schemas that share parts many times over
 * grow without end once inlined, so the walk stops here rather than after.
 */
const MAX_SCHEMA_CHARS = 1_000_000;

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);
/**
 * OpenAPI's annotations, which a validator does not read (and a strict one refuses), and the identifiers
 * that would move where a later $ref points once the schema stands alone.
 */
const DROPPED_KEYWORDS = new Set([
  'example',
  'examples',
  'xml',
  'externalDocs',
  'discriminator',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
]);

class TooLarge extends Error {}

/** Keys of a JSON type that says a media type is JSON: application/json, application/problem+json. */
export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || /^[a-z]+\/[^/]*\+json$/.test(base) || base === 'text/json';
}

/** The lowest 2xx status among a responses object's keys, a "2XX" range as 200, else undefined. */
export function successStatusKey(
  responses: Record<string, unknown>,
): { key: string; status: number } | undefined {
  const exact = Object.keys(responses)
    .filter((key) => /^2\d\d$/.test(key.trim()))
    .sort((a, b) => Number(a) - Number(b));
  if (exact[0] !== undefined) return { key: exact[0], status: Number(exact[0].trim()) };
  const range = Object.keys(responses).find((key) => key.trim().toUpperCase() === '2XX');
  return range === undefined ? undefined : { key: range, status: 200 };
}

/**
 * Writes a schema with every $ref replaced by what it names. A $ref back into itself (a tree of nodes)
 * is cut where it recurs: that part then accepts any value and says so in `$comment`, and `onCycle`
 * hears of it once per reference.
 */
export class SchemaInliner {
  private size = 0;

  constructor(
    private readonly resolver: RefResolver,
    private readonly dialect: SchemaDialect,
    private readonly onCycle: (ref: string) => void,
  ) {}

  /** The schema inlined, or a reason it cannot be written. */
  inline(
    schema: unknown,
    ctx: RefContext,
    location: string,
  ): { schema: Record<string, unknown> } | { problem: string } {
    this.size = 0;
    try {
      const out = this.schema(schema, ctx, location, [], 0);
      if (!isRecord(out)) return { problem: 'the response schema is not an object' };
      return { schema: out };
    } catch (error) {
      if (error instanceof TooLarge) return { problem: error.message };
      throw error;
    }
  }

  private count(chars: number): void {
    this.size += chars;
    if (this.size > MAX_SCHEMA_CHARS) {
      throw new TooLarge(
        `with its $refs inlined the response schema is longer than ${MAX_SCHEMA_CHARS.toLocaleString('en-US')} characters`,
      );
    }
  }

  private schema(
    node: unknown,
    ctx: RefContext,
    location: string,
    refs: readonly string[],
    depth: number,
  ): unknown {
    if (depth > MAX_NESTING)
      throw new TooLarge(`the response schema nests deeper than ${MAX_NESTING} levels`);
    if (typeof node === 'boolean') {
      this.count(5);
      return node;
    }
    if (!isRecord(node)) return this.data(node, depth);
    if (typeof node.$ref === 'string') return this.reference(node, node.$ref, ctx, location, refs, depth);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED_KEYWORDS.has(key)) continue;
      if (key.startsWith('x-')) {
        // Swagger 2 writes "may be null" as an extension; OpenAPI 3.0 as nullable, which the judge reads.
        if (key === 'x-nullable' && value === true && this.dialect === 'swagger2') out.nullable = true;
        continue;
      }
      this.count(key.length + 4);
      if (SCHEMA_KEYWORDS.has(key)) {
        out[key] = Array.isArray(value)
          ? value.map((item) => this.schema(item, ctx, location, refs, depth + 1))
          : this.schema(value, ctx, location, refs, depth + 1);
      } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
        out[key] = value.map((item) => this.schema(item, ctx, location, refs, depth + 1));
      } else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
        out[key] = this.schemaMap(value, ctx, location, refs, depth + 1);
      } else if (key === 'dependencies' && isRecord(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, dependency]) => [
            name,
            Array.isArray(dependency)
              ? this.data(dependency, depth + 1)
              : this.schema(dependency, ctx, location, refs, depth + 1),
          ]),
        );
      } else {
        out[key] = this.data(value, depth + 1);
      }
    }
    if (this.dialect !== 'openapi31') draft4Exclusive(out);
    return out;
  }

  private schemaMap(
    map: Record<string, unknown>,
    ctx: RefContext,
    location: string,
    refs: readonly string[],
    depth: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(map)) {
      this.count(name.length + 4);
      out[name] = this.schema(value, ctx, location, refs, depth);
    }
    return out;
  }

  private reference(
    node: Record<string, unknown>,
    ref: string,
    ctx: RefContext,
    location: string,
    refs: readonly string[],
    depth: number,
  ): unknown {
    const resolved = this.resolver.resolve(node, ctx, location);
    if (resolved === undefined) {
      // The resolver has said why (a missing file, a remote document); the part then accepts anything.
      this.count(60 + ref.length);
      return { $comment: `$ref ${ref} could not be followed, so this part is not checked` };
    }
    const key = resolved.key ?? ref;
    if (refs.includes(key)) {
      this.onCycle(ref);
      this.count(60 + ref.length);
      return { $comment: `$ref ${ref} recurs here; deeper levels are not checked` };
    }
    const target = this.schema(resolved.value, resolved.ctx, location, [...refs, key], depth + 1);
    if (this.dialect !== 'openapi31') return target; // Before 3.1 the siblings of a $ref are ignored.
    const { $ref: _ref, ...siblings } = node;
    const checked = Object.keys(siblings).filter(
      (k) =>
        !DROPPED_KEYWORDS.has(k) && !k.startsWith('x-') && !['description', 'title', 'summary'].includes(k),
    );
    if (checked.length === 0) return target;
    const rest = this.schema(siblings, ctx, location, refs, depth + 1);
    return isRecord(rest)
      ? { ...rest, allOf: [...(Array.isArray(rest.allOf) ? (rest.allOf as unknown[]) : []), target] }
      : target;
  }

  /** A value that is data, not a schema (enum, const, default, required): copied as written. */
  private data(value: unknown, depth: number): unknown {
    if (depth > MAX_NESTING)
      throw new TooLarge(`the response schema nests deeper than ${MAX_NESTING} levels`);
    if (Array.isArray(value)) {
      this.count(2);
      return value.map((item) => this.data(item, depth + 1));
    }
    if (isRecord(value)) {
      this.count(2);
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => {
          this.count(key.length + 4);
          return [key, this.data(item, depth + 1)];
        }),
      );
    }
    this.count(typeof value === 'string' ? value.length + 2 : String(value).length);
    return value;
  }
}

/**
 * Draft 4 (Swagger 2, OpenAPI 3.0) writes an exclusive bound as `exclusiveMinimum: true` beside
 * `minimum`; later drafts, which validators speak, write the bound itself as `exclusiveMinimum`.
 */
export function draft4Exclusive(schema: Record<string, unknown>): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else {
      delete schema[exclusive];
    }
  }
}
