import { asString, isRecord } from './import-model';
import { type Body, BodyWriter, type FormField, pickMediaType } from './openapi-bodies';
import { BASE_URL_PLACEHOLDER, OpenApiImport, type OpenApiImportOptions, stringList } from './openapi-import';
import { type Parameter, type ParameterFormat, queryPairs, schemaValue } from './openapi-parameters';
import type { RefContext } from './openapi-refs';
import { isJsonMediaType } from './openapi-responses';
import { SecurityMapper } from './openapi-security';
import { joinUrl } from './url-tools';

/**
 * Swagger 2.0: a parameter is its own schema (type, items, default, enum) and says how an array is
 * written by collectionFormat; the body is one `in: body` parameter or the `in: formData` ones, in the
 * media type `consumes` names; URLs are scheme + host + basePath.
 */
export class Swagger2Import extends OpenApiImport {
  protected readonly kind = 'Swagger 2.0';
  protected readonly pathsOptional = false;
  protected readonly bodyPlaces: readonly string[] = ['body', 'formData'];
  protected readonly schemaDialect = 'swagger2' as const;
  private readonly bodies: BodyWriter;

  constructor(doc: Record<string, unknown>, file: string, options: OpenApiImportOptions) {
    super(doc, file, options);
    this.bodies = new BodyWriter(this.resolver, (location, message) => this.warn(location, message));
  }

  protected parameterValue(param: Parameter, location: string): unknown {
    const { raw, ctx } = param;
    if (raw.example !== undefined) return raw.example;
    if (raw['x-example'] !== undefined) return raw['x-example'];
    return schemaValue(raw, ctx, this.resolver, location);
  }

  /**
   * csv (the default) joins with commas, ssv with spaces, tsv with tabs, pipes with |; multi repeats the
   * name, which only query and form parameters can do.
   */
  protected parameterFormat(param: Parameter): ParameterFormat {
    const inQuery = param.in === 'query' || param.in === 'formData';
    const plain: ParameterFormat = { style: inQuery ? 'form' : 'simple', explode: false };
    switch (param.raw.collectionFormat) {
      case 'multi':
        return inQuery ? { style: 'form', explode: true } : plain;
      case 'ssv':
        return { ...plain, separator: ' ' };
      case 'tsv':
        return { ...plain, separator: '\t' };
      case 'pipes':
        return { ...plain, separator: '|' };
      default:
        return plain;
    }
  }

  protected body(
    operation: Record<string, unknown>,
    bodyParams: Parameter[],
    _ctx: RefContext,
    location: string,
  ): Body | undefined {
    const consumes = stringList(operation.consumes) ?? stringList(this.doc.consumes) ?? [];
    const at = `${location}.parameters`;
    const body = bodyParams.find((p) => p.in === 'body');
    if (body) {
      const contentType = pickMediaType(consumes) ?? 'application/json';
      const examples = isRecord(body.raw['x-examples']) ? body.raw['x-examples'] : undefined;
      const example = examples?.[contentType] ?? body.raw['x-example'];
      return this.bodies.write(contentType, example, body.raw.schema, body.ctx, at, body.required);
    }
    const formParams = bodyParams.filter((p) => p.in === 'formData');
    if (formParams.length === 0) return undefined;
    const multipart =
      consumes.some((c) => c.toLowerCase().startsWith('multipart/form-data')) ||
      formParams.some((p) => p.raw.type === 'file');
    const fields: FormField[] = formParams.flatMap((param): FormField[] => {
      if (param.raw.type === 'file') return [{ name: param.name, value: '', file: true }];
      const value = this.valueOf(param, at);
      if (value === undefined) return [];
      return queryPairs(param.name, value, this.parameterFormat(param)).map((pair) => ({
        name: pair.key,
        value: pair.value,
        file: false,
      }));
    });
    return this.bodies.form(
      multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
      fields,
      at,
      formParams.some((p) => p.required),
    );
  }

  /** The response's schema, when the operation (or the document) produces JSON or does not say. */
  protected responseBodySchema(
    response: Record<string, unknown>,
    operation: Record<string, unknown>,
  ): unknown {
    const produces = stringList(operation.produces) ?? stringList(this.doc.produces) ?? [];
    if (produces.length > 0 && !produces.some(isJsonMediaType)) return undefined;
    return response.schema;
  }

  /** scheme (https when listed, else the first) :// host basePath. */
  protected documentBase(): string {
    const host = asString(this.doc.host)?.trim();
    const basePath = asString(this.doc.basePath)?.trim() ?? '';
    const schemes = stringList(this.doc.schemes) ?? [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    if (!host) {
      this.warnOnce(
        'host',
        `The document names no host, so the URLs start with ${BASE_URL_PLACEHOLDER}: give a base URL when importing, or edit the URLs`,
      );
      return joinUrl(BASE_URL_PLACEHOLDER, basePath).replace(/\/+$/, '');
    }
    return joinUrl(`${scheme}://${host}`, basePath).replace(/\/+$/, '');
  }

  protected securityMapper(): SecurityMapper {
    return new SecurityMapper(
      this.resolver,
      this.doc.security,
      this.doc.securityDefinitions,
      'securityDefinitions',
      (location, message) => this.warnOnce(location, message),
    );
  }
}
