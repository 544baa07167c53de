import { asString, isRecord } from './import-model';
import { type Body, BodyWriter, pickMediaType } from './openapi-bodies';
import { BASE_URL_PLACEHOLDER, OpenApiImport, type OpenApiImportOptions } from './openapi-import';
import {
  firstExampleValue,
  type Parameter,
  type ParameterFormat,
  parameterStyle,
  schemaValue,
} from './openapi-parameters';
import type { RefContext } from './openapi-refs';
import { isJsonMediaType, type SchemaDialect } from './openapi-responses';
import { SecurityMapper } from './openapi-security';
import { toPlanUrl } from './url-tools';

/**
 * OpenAPI 3.0 / 3.1 / 3.2: parameters carry a schema (or a content map), a style and explode; the body is
 * the operation's requestBody with a media type, an example and an encoding; URLs start at the nearest
 * servers list, its variables at their defaults.
 */
export class OpenApi3Import extends OpenApiImport {
  protected readonly kind: string;
  protected readonly pathsOptional: boolean;
  protected readonly bodyPlaces: readonly string[] = [];
  protected readonly schemaDialect: SchemaDialect;
  private readonly bodies: BodyWriter;

  constructor(doc: Record<string, unknown>, file: string, version: string, options: OpenApiImportOptions) {
    super(doc, file, options);
    this.kind = `OpenAPI ${version}`;
    this.pathsOptional = !version.startsWith('3.0');
    this.schemaDialect = version.startsWith('3.0') ? 'openapi30' : 'openapi31';
    this.bodies = new BodyWriter(this.resolver, (location, message) => this.warn(location, message));
  }

  protected parameterValue(param: Parameter, location: string): unknown {
    const { raw, ctx } = param;
    if (raw.example !== undefined) return raw.example;
    const example = firstExampleValue(raw.examples, ctx, this.resolver, location);
    if (example !== undefined) return example;
    // Written by some converters from Swagger 2; harmless where absent.
    if (raw['x-example'] !== undefined) return raw['x-example'];
    if (isRecord(raw.content)) {
      // A parameter with a media type (content) is sent as that media type's text, not by a style.
      const [media] = Object.values(raw.content);
      if (!isRecord(media)) return undefined;
      const value =
        media.example ??
        firstExampleValue(media.examples, ctx, this.resolver, location) ??
        schemaValue(media.schema, ctx, this.resolver, location);
      return value === undefined || typeof value === 'string' ? value : JSON.stringify(value);
    }
    return schemaValue(raw.schema, ctx, this.resolver, location);
  }

  /** Query and cookie default to form, path and header to simple; explode defaults to true for form only. */
  protected parameterFormat(param: Parameter): ParameterFormat {
    const fallback = param.in === 'query' || param.in === 'cookie' ? 'form' : 'simple';
    const style = parameterStyle(param.raw.style, fallback);
    const explode = typeof param.raw.explode === 'boolean' ? param.raw.explode : style === 'form';
    return { style, explode };
  }

  protected body(
    operation: Record<string, unknown>,
    _bodyParams: Parameter[],
    ctx: RefContext,
    location: string,
  ): Body | undefined {
    if (operation.requestBody === undefined) return undefined;
    const resolved = this.resolver.resolve(operation.requestBody, ctx, `${location}.requestBody`);
    if (resolved === undefined || !isRecord(resolved.value)) return undefined;
    const requestBody = resolved.value;
    const content = isRecord(requestBody.content) ? requestBody.content : {};
    const contentType = pickMediaType(Object.keys(content));
    if (contentType === undefined) return undefined;
    const media = isRecord(content[contentType]) ? content[contentType] : {};
    const at = `${location}.requestBody`;
    let example: unknown = media.example;
    if (example === undefined && isRecord(media.examples)) {
      for (const [name, candidate] of Object.entries(media.examples)) {
        const ex = this.resolver.resolve(candidate, resolved.ctx, at);
        if (ex && isRecord(ex.value)) {
          if (ex.value.value !== undefined) {
            example = ex.value.value;
            break;
          }
          if (typeof ex.value.externalValue === 'string') {
            this.warnOnce(at, `Example "${name}" is in ${ex.value.externalValue}, which is not fetched`);
          }
        }
      }
    }
    return this.bodies.write(
      contentType,
      example,
      media.schema,
      resolved.ctx,
      at,
      requestBody.required === true,
      isRecord(media.encoding) ? media.encoding : undefined,
    );
  }

  /** The schema of the response's JSON media type: application/json first, then any other JSON type. */
  protected responseBodySchema(response: Record<string, unknown>): unknown {
    if (!isRecord(response.content)) return undefined;
    const types = Object.keys(response.content).filter(isJsonMediaType);
    const chosen =
      types.find((type) => type.split(';')[0]?.trim().toLowerCase() === 'application/json') ?? types[0];
    const media = chosen === undefined ? undefined : response.content[chosen];
    return isRecord(media) ? media.schema : undefined;
  }

  /** The operation's servers, else its path's, else the document's; the first of the list. */
  protected documentBase(
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    location: string,
  ): string {
    for (const [servers, at] of [
      [operation.servers, `${location}.servers`],
      [item.servers, `${location.split('.').slice(0, 2).join('.')}.servers`],
      [this.doc.servers, 'servers'],
    ] as const) {
      if (Array.isArray(servers) && servers.length > 0 && isRecord(servers[0])) {
        return this.serverUrl(servers[0], at);
      }
    }
    this.warnOnce(
      'servers',
      `The document names no server, so the URLs start with ${BASE_URL_PLACEHOLDER}: give a base URL when importing, or edit the URLs`,
    );
    return BASE_URL_PLACEHOLDER;
  }

  protected securityMapper(): SecurityMapper {
    const components = isRecord(this.doc.components) ? this.doc.components : undefined;
    return new SecurityMapper(
      this.resolver,
      this.doc.security,
      components?.securitySchemes,
      'components.securitySchemes',
      (location, message) => this.warnOnce(location, message),
    );
  }

  private serverUrl(server: Record<string, unknown>, location: string): string {
    const variables = isRecord(server.variables) ? server.variables : {};
    const raw = asString(server.url)?.trim() ?? '';
    // {name} is a server variable; {{name}} (seen in Postman-made documents) is left for the plan's templates.
    const url = raw.replace(/(?<!\{)\{([^{}]+)\}(?!\})/g, (_m, name: string) => {
      const variable = variables[name];
      const value = isRecord(variable)
        ? (asString(variable.default) ??
          (Array.isArray(variable.enum) ? asString(variable.enum[0]) : undefined))
        : undefined;
      if (value !== undefined) return value;
      this.warnOnce(
        `${location}.${name}`,
        `Server variable ${name} has no default value; the URL holds {{${name}}} to fill in`,
      );
      return `{{${name}}}`;
    });
    if (url === '' || url === '/') {
      this.warnOnce(
        'servers:relative',
        `The server URL is relative ("${raw || '/'}"), so the URLs start with ${BASE_URL_PLACEHOLDER}: give a base URL when importing, or edit the URLs`,
      );
      return BASE_URL_PLACEHOLDER;
    }
    if (url.startsWith('/') && !url.startsWith('//')) {
      this.warnOnce(
        'servers:relative',
        `The server URL is relative ("${raw}"), so the URLs start with ${BASE_URL_PLACEHOLDER}${url}: give a base URL when importing, or edit the URLs`,
      );
      return `${BASE_URL_PLACEHOLDER}${url.replace(/\/+$/, '')}`;
    }
    return toPlanUrl(url).replace(/\/+$/, '');
  }
}
