import { isRecord } from './import-model';
import type { RefContext, RefResolver } from './openapi-refs';

/**
 * A sample value for a JSON Schema (OpenAPI 3.x Schema Object or Swagger 2.0 schema), as Swagger UI would
 * show it: the schema's own example, default, const or first enum value where it has one, otherwise a value
 * of its type. allOf members are merged, the first usable oneOf/anyOf member is taken, read-only properties
 * are left out of request bodies. Recursion through $ref is cut where it would repeat, depth is limited, and
 * so is the number of values one sample may hold, so a huge or self-referring schema stays cheap.
 */

const MAX_DEPTH = 12;
/** Values in one sample; beyond this the rest of the object is left out. */
const MAX_NODES = 3000;

export interface SampleOutcome {
  value: unknown;
  /** True when the node budget ran out and part of the sample was left out. */
  truncated: boolean;
}

const ABSENT = Symbol('absent');

export class SchemaSampler {
  private budget = MAX_NODES;
  private truncated = false;

  constructor(
    private readonly resolver: RefResolver,
    private readonly location: string,
  ) {}

  sample(schema: unknown, ctx: RefContext): SampleOutcome {
    this.budget = MAX_NODES;
    this.truncated = false;
    const value = this.walk(schema, ctx, 0, new Set());
    return { value: value === ABSENT ? undefined : value, truncated: this.truncated };
  }

  private walk(node: unknown, ctx: RefContext, depth: number, stack: ReadonlySet<string>): unknown {
    if (this.budget <= 0) {
      this.truncated = true;
      return ABSENT;
    }
    this.budget--;
    const resolved = this.resolver.resolve(node, ctx, this.location);
    if (resolved === undefined) return ABSENT;
    if (resolved.key !== undefined && stack.has(resolved.key)) return ABSENT;
    const schema = resolved.value;
    if (!isRecord(schema)) return ABSENT;
    const here = resolved.ctx;
    const inner = resolved.key === undefined ? stack : new Set([...stack, resolved.key]);

    if (schema.example !== undefined) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if (schema.const !== undefined) return schema.const;
    if (schema.default !== undefined) return schema.default;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    if (depth >= MAX_DEPTH) return ABSENT;

    const own = this.typed(schema, here, depth, inner);
    const composed: unknown[] = [];
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) {
        const value = this.walk(member, here, depth + 1, inner);
        if (value !== ABSENT) composed.push(value);
      }
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key];
      if (!Array.isArray(options)) continue;
      for (const option of options) {
        if (isNullSchema(option)) continue;
        const value = this.walk(option, here, depth + 1, inner);
        if (value !== ABSENT) {
          composed.push(value);
          break;
        }
      }
    }
    if (composed.length === 0) return own;
    const parts = own === ABSENT ? composed : [own, ...composed];
    if (parts.every(isRecord)) return Object.assign({}, ...parts) as Record<string, unknown>;
    return parts[parts.length - 1];
  }

  /** The sample of the schema's own type and properties, ignoring allOf / oneOf / anyOf. */
  private typed(
    schema: Record<string, unknown>,
    ctx: RefContext,
    depth: number,
    stack: ReadonlySet<string>,
  ): unknown {
    const type = schemaType(schema);
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        const properties = isRecord(schema.properties) ? schema.properties : {};
        for (const [name, property] of Object.entries(properties)) {
          if (this.isReadOnly(property, ctx)) continue;
          const value = this.walk(property, ctx, depth + 1, stack);
          if (value !== ABSENT) out[name] = value;
          if (this.budget <= 0) break;
        }
        if (Object.keys(properties).length === 0 && isRecord(schema.additionalProperties)) {
          const value = this.walk(schema.additionalProperties, ctx, depth + 1, stack);
          if (value !== ABSENT) out.additionalProp1 = value;
        }
        return out;
      }
      case 'array': {
        if (schema.items === undefined) return [];
        const item = this.walk(schema.items, ctx, depth + 1, stack);
        return item === ABSENT ? [] : [item];
      }
      case 'string':
        return stringSample(typeof schema.format === 'string' ? schema.format : '');
      case 'integer':
      case 'number':
        return numberSample(schema);
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'file':
        return '';
      default:
        return ABSENT;
    }
  }

  private isReadOnly(property: unknown, ctx: RefContext): boolean {
    const resolved = this.resolver.resolve(property, ctx, this.location);
    return resolved !== undefined && isRecord(resolved.value) && resolved.value.readOnly === true;
  }
}

/** The schema's type: the first non-null one of a 3.1 type list, else what its keywords imply. */
export function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const first: unknown = type.find((t) => t !== 'null') ?? type[0];
    return typeof first === 'string' ? first : undefined;
  }
  if (isRecord(schema.properties) || isRecord(schema.additionalProperties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null';
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00',
  email: 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '192.168.0.1',
  ipv6: '::1',
  byte: 'U3dhZ2dlciByb2Nrcw==',
  password: 'password',
  binary: '',
};

function stringSample(format: string): string {
  return FORMAT_SAMPLES[format] ?? 'string';
}

function numberSample(schema: Record<string, unknown>): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  // 3.1 writes the exclusive bound as a number; 3.0 as a flag beside minimum.
  const exclusive = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  if (exclusive !== undefined) return exclusive + 1;
  if (minimum !== undefined) return schema.exclusiveMinimum === true ? minimum + 1 : minimum;
  return 0;
}
