import { VARIABLE_NAME } from '@aqa/plan';
import { isRecord } from './import-model';
import type { RefContext, RefResolver } from './openapi-refs';
import { schemaType } from './openapi-samples';
import type { QueryPair } from './url-tools';

/**
 * Parameter values of an OpenAPI / Swagger operation, shared by both dialects: which value a parameter
 * gets (only one the document gives: an example, a default, an enum value; never a made-up "string"),
 * and how that value is written into a path, a query, a header or a form field by the parameter's
 * style and explode (OpenAPI 3) or collectionFormat (Swagger 2).
 */

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  raw: Record<string, unknown>;
  ctx: RefContext;
}

export type ParameterStyle =
  'form' | 'simple' | 'label' | 'matrix' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

const STYLES: readonly string[] = [
  'form',
  'simple',
  'label',
  'matrix',
  'spaceDelimited',
  'pipeDelimited',
  'deepObject',
];

export interface ParameterFormat {
  style: ParameterStyle;
  explode: boolean;
  /** Joins an array that is not exploded, where the style's own separator does not apply (Swagger's tsv). */
  separator?: string | undefined;
}

export function parameterStyle(value: unknown, fallback: ParameterStyle): ParameterStyle {
  return typeof value === 'string' && STYLES.includes(value) ? (value as ParameterStyle) : fallback;
}

/** A value the document does not give: sent as {{name}} and listed as needing a value. */
export class Variable {
  readonly template: string;
  constructor(readonly name: string) {
    this.template = `{{${name}}}`;
  }
}

/** A parameter's name as a plan variable name ({{name}} takes letters, digits, _ . - only). */
export function variableName(name: string): string {
  const cleaned = name
    .replace(/\[\]$/, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+(?=.)|_+$/g, '');
  const candidate = /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
  return VARIABLE_NAME.test(candidate) ? candidate : 'value';
}

const MAX_DEPTH = 8;

/**
 * The value a schema itself names: its example, first 3.1 example, default, first enum value or const;
 * for an array, one item of the value its items name; through $ref, allOf, oneOf and anyOf. Undefined
 * when the schema names none: a value of its type ("string", 1) would be a guess the API likely refuses.
 */
export function schemaValue(
  schema: unknown,
  ctx: RefContext,
  resolver: RefResolver,
  location: string,
  depth = 0,
): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const resolved = resolver.resolve(schema, ctx, location);
  if (resolved === undefined || !isRecord(resolved.value)) return undefined;
  const s = resolved.value;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) {
    const first: unknown = s.enum.find((v) => v !== null);
    if (first !== undefined) return first;
  }
  if (s.const !== undefined) return s.const;
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const members = s[key];
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      const value = schemaValue(member, resolved.ctx, resolver, location, depth + 1);
      if (value !== undefined) return value;
    }
  }
  if (schemaType(s) === 'array' && s.items !== undefined) {
    const item = schemaValue(s.items, resolved.ctx, resolver, location, depth + 1);
    if (item !== undefined) return [item];
  }
  return undefined;
}

/** The first `value` of an OpenAPI 3 examples map (Example Objects, possibly $refs). */
export function firstExampleValue(
  examples: unknown,
  ctx: RefContext,
  resolver: RefResolver,
  location: string,
): unknown {
  if (!isRecord(examples)) return undefined;
  for (const example of Object.values(examples)) {
    const resolved = resolver.resolve(example, ctx, location);
    if (resolved && isRecord(resolved.value) && resolved.value.value !== undefined)
      return resolved.value.value;
  }
  return undefined;
}

/** A scalar as text; anything else as compact JSON. */
export function scalarText(value: unknown): string {
  if (value instanceof Variable) return value.template;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

function joiner(format: ParameterFormat): string {
  if (format.separator !== undefined) return format.separator;
  if (format.style === 'spaceDelimited') return ' ';
  if (format.style === 'pipeDelimited') return '|';
  return ',';
}

/** Nested values as name[key][0]=…: the deepObject style, and how Stripe-like form APIs read objects. */
export function deepPairs(prefix: string, value: unknown): QueryPair[] {
  if (value instanceof Variable) return [{ key: prefix, value: value.template }];
  if (Array.isArray(value)) return value.flatMap((item, i) => deepPairs(`${prefix}[${i}]`, item));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, v]) => deepPairs(`${prefix}[${key}]`, v));
  return [{ key: prefix, value: scalarText(value) }];
}

const nested = (value: unknown): boolean =>
  isRecord(value) || (Array.isArray(value) && value.some((v) => isRecord(v) || Array.isArray(v)));

/** Query (or form field) pairs of one parameter, not yet percent-encoded. */
export function queryPairs(name: string, value: unknown, format: ParameterFormat): QueryPair[] {
  if (value instanceof Variable) return [{ key: name, value: value.template }];
  if (format.style === 'deepObject' && (isRecord(value) || Array.isArray(value))) {
    return deepPairs(name, value);
  }
  if (Array.isArray(value)) {
    if (value.some((v) => isRecord(v) || Array.isArray(v))) return deepPairs(name, value);
    const items = value.map(scalarText);
    if (format.explode && format.separator === undefined && format.style === 'form') {
      return items.map((item) => ({ key: name, value: item }));
    }
    return [{ key: name, value: items.join(joiner(format)) }];
  }
  if (isRecord(value)) {
    if (Object.values(value).some(nested)) return deepPairs(name, value);
    const entries = Object.entries(value).map(([k, v]) => [k, scalarText(v)] as const);
    if (format.explode) return entries.map(([k, v]) => ({ key: k, value: v }));
    return [{ key: name, value: entries.flat().join(',') }];
  }
  return [{ key: name, value: scalarText(value) }];
}

/** A path segment's text (percent-encoded; {{variables}} kept) by the simple, label or matrix style. */
export function pathText(name: string, value: unknown, format: ParameterFormat): string {
  const enc = (v: unknown) => {
    const text = scalarText(v);
    return v instanceof Variable || text.includes('{{') ? text : encodeURIComponent(text);
  };
  const { style, explode } = format;
  if (value instanceof Variable) {
    return style === 'matrix'
      ? `;${encodeURIComponent(name)}=${value.template}`
      : `${style === 'label' ? '.' : ''}${value.template}`;
  }
  if (style === 'matrix') {
    const key = `;${encodeURIComponent(name)}`;
    if (Array.isArray(value)) {
      return explode ? value.map((v) => `${key}=${enc(v)}`).join('') : `${key}=${value.map(enc).join(',')}`;
    }
    if (isRecord(value)) {
      const entries = Object.entries(value);
      return explode
        ? entries.map(([k, v]) => `;${encodeURIComponent(k)}=${enc(v)}`).join('')
        : `${key}=${entries.map(([k, v]) => `${encodeURIComponent(k)},${enc(v)}`).join(',')}`;
    }
    return `${key}=${enc(value)}`;
  }
  const prefix = style === 'label' ? '.' : '';
  const between = style === 'label' && explode ? '.' : (format.separator ?? ',');
  if (Array.isArray(value)) return prefix + value.map(enc).join(between);
  if (isRecord(value)) {
    const entries = Object.entries(value);
    return (
      prefix +
      (explode
        ? entries.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`).join(between)
        : entries.map(([k, v]) => `${encodeURIComponent(k)},${enc(v)}`).join(','))
    );
  }
  return prefix + enc(value);
}

/** A header's value: the simple style (arrays comma-joined, objects k,v or k=v). */
export function headerText(value: unknown, format: ParameterFormat): string {
  if (value instanceof Variable) return value.template;
  if (Array.isArray(value)) return value.map(scalarText).join(format.separator ?? ',');
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([k, v]) => (format.explode ? `${k}=${scalarText(v)}` : `${k},${scalarText(v)}`))
      .join(',');
  }
  return scalarText(value);
}

/** What a parameter sends: its value, a {{variable}} when it must be sent but has none, or nothing. */
export function valueOrVariable(param: Parameter, value: unknown): unknown {
  if (value !== undefined && value !== null) return value;
  return param.required ? new Variable(variableName(param.name)) : undefined;
}
