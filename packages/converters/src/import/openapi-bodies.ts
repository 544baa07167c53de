import { asString, isRecord } from './import-model';
import { deepPairs, parameterStyle, queryPairs, scalarText } from './openapi-parameters';
import type { RefContext, RefResolver } from './openapi-refs';
import { SchemaSampler, schemaType } from './openapi-samples';
import {
  formUrlEncode,
  type MultipartPart,
  multipartBody,
  multipartContentType,
  type QueryPair,
} from './url-tools';

/**
 * Request bodies of both dialects as the plan's text payload: JSON as JSON, XML as XML, and forms
 * (application/x-www-form-urlencoded, multipart/form-data) field by field, a nested object as
 * name[key]=… unless the media type's `encoding` says another style or a JSON part.
 */

export interface Body {
  contentType: string;
  /** The Content-Type header when it differs from the media type (multipart's boundary). */
  headerValue?: string;
  required: boolean;
  payload: string;
}

/** One form field as it is sent; a file field is an empty file part the user replaces. */
export interface FormField {
  name: string;
  value: string;
  file: boolean;
  contentType?: string | undefined;
}

type Warn = (location: string, message: string) => void;

export class BodyWriter {
  constructor(
    private readonly resolver: RefResolver,
    private readonly warn: Warn,
  ) {}

  /** The body of a media type from its example, else a sample of its schema. */
  write(
    contentType: string,
    example: unknown,
    schema: unknown,
    ctx: RefContext,
    location: string,
    required: boolean,
    encoding?: Record<string, unknown>,
  ): Body {
    const type = contentType.toLowerCase();
    let value = example;
    if (value === undefined && schema !== undefined) {
      const outcome = new SchemaSampler(this.resolver, location).sample(schema, ctx);
      value = outcome.value;
      if (outcome.truncated)
        this.warn(location, 'The schema is very large, so the sample body holds only part of it');
    }
    if (type.includes('json')) {
      return { contentType, required, payload: jsonText(value) };
    }
    if (type === 'application/x-www-form-urlencoded' && typeof value === 'string') {
      return { contentType, required, payload: value };
    }
    if (type === 'application/x-www-form-urlencoded' || type.startsWith('multipart/')) {
      const multipart = type.startsWith('multipart/');
      const fields = this.formFields(value, schema, ctx, location, encoding, multipart);
      return this.form(multipart ? 'multipart/form-data' : contentType, fields, location, required);
    }
    if (type.includes('xml')) {
      const root = xmlRootName(schema, this.resolver, ctx, location);
      return {
        contentType,
        required,
        payload: typeof value === 'string' ? value : value === undefined ? '' : toXml(value, root),
      };
    }
    if (type.startsWith('text/')) {
      return {
        contentType,
        required,
        payload: value === undefined ? '' : typeof value === 'string' ? value : jsonText(value),
      };
    }
    this.warn(
      location,
      `The ${contentType} body is not imported (the plan holds text bodies); add it by hand if the request needs one`,
    );
    return { contentType, required, payload: typeof value === 'string' ? value : '' };
  }

  /** A form body from its fields: url-encoded pairs, or multipart parts with a boundary. */
  form(contentType: string, fields: FormField[], location: string, required: boolean): Body {
    if (contentType.toLowerCase().startsWith('multipart/')) {
      const files = fields.filter((f) => f.file).map((f) => f.name);
      if (files.length > 0) {
        this.warn(
          location,
          `File field${files.length > 1 ? 's' : ''} ${files.join(', ')}: no file is imported; an empty file part is sent until you replace it`,
        );
      }
      const parts: MultipartPart[] = fields.map((f) => ({
        name: f.name,
        value: f.value,
        fileName: f.file ? `${f.name}.bin` : undefined,
        contentType: f.file ? (f.contentType ?? 'application/octet-stream') : f.contentType,
      }));
      return {
        contentType: 'multipart/form-data',
        headerValue: multipartContentType(),
        required,
        payload: multipartBody(parts),
      };
    }
    return {
      contentType,
      required,
      payload: formUrlEncode(
        fields.map((f) => ({ key: f.name, value: f.value })),
        { brackets: true },
      ),
    };
  }

  /**
   * The fields of a form value by the media type's encoding: a property whose encoding names a JSON
   * content type is one JSON field; one with a style is written by that style; otherwise a nested object
   * or an array of objects is name[key]=… / name[0][key]=… (deepObject, as Stripe documents its forms),
   * an array of scalars repeats the name (form, exploded), and a scalar is name=value.
   */
  private formFields(
    value: unknown,
    schema: unknown,
    ctx: RefContext,
    location: string,
    encoding: Record<string, unknown> | undefined,
    multipart: boolean,
  ): FormField[] {
    if (!isRecord(value)) return [];
    const resolved = this.resolver.resolve(schema, ctx, location);
    const properties =
      resolved && isRecord(resolved.value) && isRecord(resolved.value.properties)
        ? resolved.value.properties
        : {};
    return Object.entries(value).flatMap(([name, field]): FormField[] => {
      const property = this.resolver.resolve(properties[name], resolved?.ctx ?? ctx, location)?.value;
      const rule = encoding && isRecord(encoding[name]) ? encoding[name] : undefined;
      const partType = asString(rule?.contentType);
      if (isFileProperty(property)) {
        return [{ name, value: '', file: true, contentType: partType }];
      }
      if (partType !== undefined && partType.toLowerCase().includes('json')) {
        return [
          {
            name,
            value: JSON.stringify(field) ?? '',
            file: false,
            contentType: multipart ? partType : undefined,
          },
        ];
      }
      const pairs: QueryPair[] =
        rule?.style !== undefined
          ? queryPairs(name, field, {
              style: parameterStyle(rule.style, 'form'),
              explode: typeof rule.explode === 'boolean' ? rule.explode : rule.style === 'form',
            })
          : isRecord(field) || (Array.isArray(field) && field.some((f) => isRecord(f) || Array.isArray(f)))
            ? deepPairs(name, field)
            : queryPairs(name, field, { style: 'form', explode: rule?.explode !== false });
      return pairs.map((pair) => ({
        name: pair.key,
        value: pair.value,
        file: false,
        contentType: multipart ? partType : undefined,
      }));
    });
  }
}

function isFileProperty(property: unknown): boolean {
  return (
    isRecord(property) &&
    (property.format === 'binary' ||
      property.format === 'base64' ||
      property.contentMediaType !== undefined ||
      (schemaType(property) === 'array' && isRecord(property.items) && property.items.format === 'binary'))
  );
}

/** JSON first (the plan takes the JSON example), then forms, text and XML, then whatever is listed first. */
export function pickMediaType(types: readonly string[]): string | undefined {
  const lower = types.map((t) => t.toLowerCase());
  const pick = (test: (t: string) => boolean) => {
    const index = lower.findIndex(test);
    return index === -1 ? undefined : types[index];
  };
  return (
    pick((t) => t === 'application/json' || t.startsWith('application/json;')) ??
    pick((t) => t.includes('json')) ??
    pick((t) => t.startsWith('application/x-www-form-urlencoded')) ??
    pick((t) => t.startsWith('multipart/form-data')) ??
    pick((t) => t.startsWith('text/plain')) ??
    pick((t) => t.includes('xml')) ??
    pick((t) => t === '*/*') ??
    types[0]
  );
}

/** JSON text of an example; an example that is already JSON text is kept as written. */
export function jsonText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        JSON.parse(trimmed);
        return value;
      } catch {
        // Not JSON text: sent as a JSON string below.
      }
    }
  }
  return JSON.stringify(value, null, 2);
}

function xmlRootName(schema: unknown, resolver: RefResolver, ctx: RefContext, location: string): string {
  if (isRecord(schema) && typeof schema.$ref === 'string') {
    const resolved = resolver.resolve(schema, ctx, location);
    if (
      resolved &&
      isRecord(resolved.value) &&
      isRecord(resolved.value.xml) &&
      typeof resolved.value.xml.name === 'string'
    ) {
      return resolved.value.xml.name;
    }
    const last = schema.$ref.split('/').pop();
    if (last) return xmlName(last);
  }
  if (isRecord(schema) && isRecord(schema.xml) && typeof schema.xml.name === 'string') return schema.xml.name;
  return 'root';
}

function xmlName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain XML rendering of a sample value: objects as child elements, arrays as repeated elements. */
function toXml(value: unknown, name: string, indent = ''): string {
  const tag = xmlName(name);
  if (Array.isArray(value)) return value.map((item) => toXml(item, name, indent)).join('\n');
  if (isRecord(value)) {
    const children = Object.entries(value)
      .map(([key, child]) => toXml(child, key, `${indent}  `))
      .join('\n');
    return `${indent}<${tag}>\n${children}\n${indent}</${tag}>`;
  }
  return `${indent}<${tag}>${escapeXml(scalarText(value))}</${tag}>`;
}
