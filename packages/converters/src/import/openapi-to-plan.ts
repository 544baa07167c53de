import { type Authorization, BODY_METHODS, type HttpMethod } from '@aqa/plan';
import {
  asString,
  authorization,
  countMethods,
  type ImportInfo,
  ImportError,
  type ImportResult,
  type ImportWarning,
  isHttpMethod,
  isRecord,
  makeStep,
  noAuthorization,
  type StepSource,
} from './import-model';
import { type RefContext, RefResolver } from './openapi-refs';
import { SchemaSampler, schemaType } from './openapi-samples';
import { type ImportSource, readStructured } from './read-document';
import {
  formUrlEncode,
  joinUrl,
  type MultipartPart,
  multipartBody,
  multipartContentType,
  type QueryPair,
  toPlanUrl,
} from './url-tools';

/**
 * OpenAPI 3.0 / 3.1 / 3.2 and Swagger 2.0 (JSON or YAML) → plan steps, one per operation in document order
 * (paths as written, then methods as written). URLs are the first server (variables at their defaults) or
 * the base URL given, plus the path with its parameters filled in; query, header and cookie parameters,
 * the request body (the document's JSON example, else a sample built from the schema) and the security
 * requirement become the step's parameters, headers, payload and authorization.
 */

export interface OpenApiImportOptions {
  /** Replaces every server URL (and Swagger's scheme + host + basePath), e.g. "http://localhost:8080/api". */
  baseUrl?: string | undefined;
  /** The other files of a multi-file spec, by their path relative to this file ("paths/pets.yaml"). */
  files?: Readonly<Record<string, ImportSource>> | undefined;
}

/** Where the URLs start when the document names no server and no base URL was given. */
export const BASE_URL_PLACEHOLDER = '{{baseUrl}}';

const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

export function openApiToPlan(source: ImportSource, options: OpenApiImportOptions = {}): ImportResult {
  const { value, file } = readStructured(source);
  return openApiDocumentToPlan(value, file, options);
}

/** The same, for a document already parsed (importFile reads it once to detect its format). */
export function openApiDocumentToPlan(
  doc: unknown,
  file: string,
  options: OpenApiImportOptions = {},
): ImportResult {
  const version = specVersion(doc, file);
  return new OpenApiImport(doc as Record<string, unknown>, file, version, options).run();
}

interface SpecVersion {
  swagger2: boolean;
  /** "3.0.3", "2.0". */
  number: string;
}

function specVersion(doc: unknown, file: string): SpecVersion {
  if (!isRecord(doc)) {
    throw new ImportError(
      file,
      'this is not an OpenAPI or Swagger document: it is not a JSON or YAML object',
    );
  }
  const openapi = asString(doc.openapi);
  const swagger = asString(doc.swagger);
  if (openapi !== undefined) {
    if (/^3\.\d+(\.\d+)?/.test(openapi.trim())) return { swagger2: false, number: openapi.trim() };
    throw new ImportError(
      file,
      `OpenAPI version "${openapi}" is not supported; OpenAPI 3.0, 3.1 and 3.2 and Swagger 2.0 are`,
    );
  }
  if (swagger !== undefined) {
    if (/^2(\.0)?$/.test(swagger.trim())) return { swagger2: true, number: '2.0' };
    throw new ImportError(
      file,
      `Swagger version "${swagger}" is not supported; Swagger 2.0 and OpenAPI 3.x are`,
    );
  }
  if (doc.swaggerVersion !== undefined) {
    throw new ImportError(
      file,
      `Swagger ${asString(doc.swaggerVersion) ?? '1.x'} is not supported; convert it to Swagger 2.0 or OpenAPI 3 first`,
    );
  }
  throw new ImportError(
    file,
    `this is not an OpenAPI or Swagger document: it has no "openapi" or "swagger" field (its top-level keys are ${topKeys(doc)})`,
  );
}

export function topKeys(doc: Record<string, unknown>): string {
  const keys = Object.keys(doc);
  if (keys.length === 0) return 'none';
  return keys.length > 8 ? `${keys.slice(0, 8).join(', ')}, …` : keys.join(', ');
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  raw: Record<string, unknown>;
  ctx: RefContext;
}

class OpenApiImport {
  private readonly warnings: ImportWarning[] = [];
  private readonly resolver: RefResolver;
  private readonly reported = new Set<string>();
  private readonly servers = new Set<string>();

  constructor(
    private readonly doc: Record<string, unknown>,
    private readonly file: string,
    private readonly version: SpecVersion,
    private readonly options: OpenApiImportOptions,
  ) {
    this.resolver = new RefResolver(doc, file, options.files ?? {}, this.warnings);
  }

  run(): ImportResult {
    const { doc, version } = this;
    const root = this.resolver.root;
    const resolvedInfo =
      doc.info === undefined ? undefined : this.resolver.resolve(doc.info, root, 'info')?.value;
    const info = isRecord(resolvedInfo) ? resolvedInfo : undefined;
    if (doc.info === undefined)
      this.warn('info', 'The document has no info object; its title is taken from the file name');
    else if (info === undefined)
      this.warn('info', 'The info object is empty (null); its title is taken from the file name');

    const webhooks = isRecord(doc.webhooks) ? Object.keys(doc.webhooks).length : 0;
    if (webhooks > 0) {
      this.warn(
        'webhooks',
        `${webhooks} webhook${webhooks === 1 ? ' is' : 's are'} not imported: a webhook is a request the API sends, not one it answers`,
      );
    }

    let paths: Record<string, unknown> = {};
    let pathsCtx = root;
    if (doc.paths === undefined || doc.paths === null) {
      const allowed = !version.swagger2 && !version.number.startsWith('3.0');
      if (!allowed) {
        throw new ImportError(
          this.file,
          'the document has no paths object, so it describes no operations to import',
        );
      }
      this.warn('paths', 'The document has no paths, so it describes no operations to import');
    } else {
      const resolved = this.resolver.resolve(doc.paths, root, 'paths');
      if (resolved === undefined || !isRecord(resolved.value)) {
        const reason = this.warnings.find((w) => w.location === 'paths')?.message;
        throw new ImportError(
          this.file,
          reason ? `the paths object cannot be read. ${reason}` : 'the paths object is not a map of paths',
        );
      }
      paths = resolved.value;
      pathsCtx = resolved.ctx;
    }

    const steps: ImportResult['steps'] = [];
    const sources: StepSource[] = [];
    const methods: string[] = [];
    let pathCount = 0;
    for (const [path, rawItem] of Object.entries(paths)) {
      if (path.startsWith('x-')) continue;
      pathCount++;
      const location = `paths.${path}`;
      const item = this.pathItem(rawItem, pathsCtx, location);
      if (item === undefined) continue;
      for (const [key, operation] of this.operations(item.value)) {
        const method = key.toUpperCase();
        methods.push(method);
        const at = `${location}.${key}`;
        if (!isRecord(operation)) {
          this.warn(at, 'The operation is not an object, so it is left out');
          continue;
        }
        if (!isHttpMethod(method)) {
          this.warn(
            at,
            `${method} is not a method the plan can send (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS), so this operation is left out`,
          );
          continue;
        }
        const built = this.operationStep(path, method, operation, item.value, item.ctx, at);
        if (built) {
          steps.push(built.step);
          sources.push(built.source);
        }
      }
    }

    const result: ImportInfo = {
      format: 'swagger',
      kind: version.swagger2 ? 'Swagger 2.0' : `OpenAPI ${version.number}`,
      title: asString(info?.title)?.trim() || this.file,
      version: asString(info?.version),
      servers: [...this.servers],
      requests: methods.length,
      methods: countMethods(methods),
      paths: pathCount,
    };
    return { steps, sources, warnings: this.warnings, info: result };
  }

  private pathItem(
    raw: unknown,
    ctx: RefContext,
    location: string,
  ): { value: Record<string, unknown>; ctx: RefContext } | undefined {
    if (!isRecord(raw)) return undefined;
    if (typeof raw.$ref !== 'string') return { value: raw, ctx };
    const resolved = this.resolver.resolve(raw, ctx, location);
    if (resolved === undefined || !isRecord(resolved.value)) return undefined;
    const { $ref: _ref, ...siblings } = raw;
    return { value: { ...resolved.value, ...siblings }, ctx: resolved.ctx };
  }

  /** [key, operation] in the order written; OpenAPI 3.2's additionalOperations after the fixed ones. */
  private operations(item: Record<string, unknown>): [string, unknown][] {
    const out: [string, unknown][] = [];
    for (const [key, value] of Object.entries(item)) {
      if (OPERATION_KEYS.includes(key)) out.push([key, value]);
      else if (key === 'additionalOperations' && isRecord(value)) {
        for (const [method, op] of Object.entries(value)) out.push([method.toLowerCase(), op]);
      }
    }
    return out;
  }

  private operationStep(
    path: string,
    method: HttpMethod,
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    ctx: RefContext,
    location: string,
  ) {
    const parameters = this.parameters(item, operation, ctx, location);
    const query: QueryPair[] = [];
    const headers: { name: string; value: string }[] = [];
    const cookies: string[] = [];
    const pathValues = new Map<string, string>();
    const bodyParams: Parameter[] = [];
    const formParams: Parameter[] = [];

    for (const param of parameters) {
      switch (param.in) {
        case 'path':
          pathValues.set(param.name, this.parameterText(param, location, true) ?? '');
          break;
        case 'query':
          for (const value of this.parameterValues(param, location)) query.push({ key: param.name, value });
          break;
        case 'header': {
          // OpenAPI: Accept, Content-Type and Authorization header parameters are ignored (other fields say them).
          if (['accept', 'content-type', 'authorization'].includes(param.name.toLowerCase())) break;
          headers.push({
            name: param.name,
            value: this.parameterText(param, location, param.required) ?? '',
          });
          break;
        }
        case 'cookie': {
          const value = this.parameterText(param, location, param.required);
          if (value) cookies.push(`${param.name}=${value}`);
          break;
        }
        case 'body':
          bodyParams.push(param);
          break;
        case 'formData':
          formParams.push(param);
          break;
        default:
          this.warn(
            `${location}.parameters`,
            `Parameter ${param.name} is "in: ${param.in}", which is not understood, so it is left out`,
          );
      }
    }
    if (cookies.length > 0) headers.push({ name: 'Cookie', value: cookies.join('; ') });

    const filledPath = path.replace(/\{([^{}]+)\}/g, (_match, name: string) => {
      const value = pathValues.get(name);
      if (value !== undefined && value !== '')
        return value.includes('{{') ? value : encodeURIComponent(value);
      this.warn(
        location,
        `Path parameter ${name} has no value in the document; the URL holds {{${name}}} to fill in`,
      );
      return `{{${name}}}`;
    });

    const body = this.version.swagger2
      ? this.swaggerBody(operation, bodyParams, formParams, location)
      : this.openApiBody(operation, ctx, location);
    const sendsBody = BODY_METHODS.includes(method);
    if (body && body.contentType && sendsBody)
      headers.push({ name: 'Content-Type', value: body.headerValue ?? body.contentType });

    const security = this.security(operation, location);
    headers.push(...security.headers);
    query.push(...security.query);

    const base = this.baseFor(operation, item, location);
    this.servers.add(base);
    const url = toPlanUrl(joinUrl(base, filledPath));
    const name =
      asString(operation.summary)?.trim() || asString(operation.operationId)?.trim() || `${method} ${path}`;
    const step = makeStep(
      {
        name,
        method,
        url,
        parameters: query,
        headers,
        authorization: security.authorization,
        payload: body?.payload ?? '',
      },
      location,
      this.warnings,
    );
    if (step === null) return undefined;
    const source: StepSource = {
      location,
      path,
      method,
      requestBody: body ? { contentType: body.contentType, required: body.required } : null,
    };
    return { step, source };
  }

  /** Path-level and operation-level parameters, the operation's replacing the path's of the same name and place. */
  private parameters(
    item: Record<string, unknown>,
    operation: Record<string, unknown>,
    ctx: RefContext,
    location: string,
  ): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const list of [item.parameters, operation.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const resolved = this.resolver.resolve(raw, ctx, `${location}.parameters`);
        if (resolved === undefined || !isRecord(resolved.value)) continue;
        const param = resolved.value;
        const name = asString(param.name);
        const where = asString(param.in);
        if (name === undefined || where === undefined) {
          this.warn(`${location}.parameters`, 'A parameter without a name or "in" is left out');
          continue;
        }
        byKey.set(`${where}:${name}`, {
          name,
          in: where,
          required: param.required === true || where === 'path',
          raw: param,
          ctx: resolved.ctx,
        });
      }
    }
    return [...byKey.values()];
  }

  /**
   * A parameter's value as text: its example, else (when `sample` is set, as for required ones) a value
   * from its schema; undefined when it has neither.
   */
  private parameterText(param: Parameter, location: string, sample: boolean): string | undefined {
    const values = this.parameterValues(param, location, sample);
    return values.length === 0 ? undefined : values.join(',');
  }

  /** Query values: an exploded array is one pair per item. Optional parameters without an example get "". */
  private parameterValues(param: Parameter, location: string, sample = param.required): string[] {
    const explicit = this.explicitExample(param, location);
    let value: unknown = explicit;
    if (value === undefined && sample) {
      const schema = this.version.swagger2 ? param.raw : param.raw.schema;
      value = new SchemaSampler(this.resolver, location, 'parameter').sample(schema, param.ctx).value;
      if (value === undefined && isRecord(param.raw.content)) {
        const [media] = Object.values(param.raw.content);
        if (isRecord(media)) {
          value = new SchemaSampler(this.resolver, location, 'parameter').sample(
            media.schema,
            param.ctx,
          ).value;
        }
      }
    }
    if (value === undefined || value === null) return [''];
    if (Array.isArray(value)) {
      const items = value.map((v) => scalarText(v));
      const explode =
        param.raw.explode === true ||
        (param.raw.explode === undefined &&
          (param.raw.style ?? 'form') === 'form' &&
          !this.version.swagger2) ||
        param.raw.collectionFormat === 'multi';
      if (param.in === 'query' && explode) return items.length > 0 ? items : [''];
      const separator =
        param.raw.collectionFormat === 'ssv'
          ? ' '
          : param.raw.collectionFormat === 'pipes'
            ? '|'
            : param.raw.collectionFormat === 'tsv'
              ? '\t'
              : ',';
      return [items.join(separator)];
    }
    return [scalarText(value)];
  }

  private explicitExample(param: Parameter, location: string): unknown {
    const raw = param.raw;
    if (raw.example !== undefined) return raw.example;
    if (raw['x-example'] !== undefined) return raw['x-example'];
    if (isRecord(raw.examples)) {
      for (const example of Object.values(raw.examples)) {
        const resolved = this.resolver.resolve(example, param.ctx, location);
        if (resolved && isRecord(resolved.value) && resolved.value.value !== undefined)
          return resolved.value.value;
      }
    }
    const schema = this.resolver.resolve(this.version.swagger2 ? raw : raw.schema, param.ctx, location);
    if (schema && isRecord(schema.value)) {
      const s = schema.value;
      if (s.example !== undefined) return s.example;
      if (s.default !== undefined) return s.default;
      if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
    }
    return undefined;
  }

  private openApiBody(
    operation: Record<string, unknown>,
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
    const required = requestBody.required === true;
    return this.bodyFor(
      contentType,
      example,
      media.schema,
      resolved.ctx,
      at,
      required,
      isRecord(media.encoding) ? media.encoding : undefined,
    );
  }

  private swaggerBody(
    operation: Record<string, unknown>,
    bodyParams: Parameter[],
    formParams: Parameter[],
    location: string,
  ): Body | undefined {
    const consumes = stringList(operation.consumes) ?? stringList(this.doc.consumes) ?? [];
    const at = `${location}.parameters`;
    const [bodyParam] = bodyParams;
    if (bodyParam) {
      const contentType = pickMediaType(consumes) ?? 'application/json';
      const examples = isRecord(bodyParam.raw['x-examples']) ? bodyParam.raw['x-examples'] : undefined;
      const example = examples?.[contentType] ?? bodyParam.raw['x-example'];
      return this.bodyFor(contentType, example, bodyParam.raw.schema, bodyParam.ctx, at, bodyParam.required);
    }
    if (formParams.length === 0) return undefined;
    const multipart =
      consumes.some((c) => c.toLowerCase().startsWith('multipart/form-data')) ||
      formParams.some((p) => p.raw.type === 'file');
    const contentType = multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    const fields: { name: string; value: string; file: boolean }[] = formParams.map((param) => ({
      name: param.name,
      value: param.raw.type === 'file' ? '' : (this.parameterText(param, at, true) ?? ''),
      file: param.raw.type === 'file',
    }));
    return this.formBody(
      contentType,
      fields,
      at,
      formParams.some((p) => p.required),
    );
  }

  private bodyFor(
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
      const fields = this.formFields(value, schema, ctx, location, encoding);
      return this.formBody(
        type.startsWith('multipart/') ? 'multipart/form-data' : contentType,
        fields,
        location,
        required,
      );
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

  private formFields(
    value: unknown,
    schema: unknown,
    ctx: RefContext,
    location: string,
    encoding: Record<string, unknown> | undefined,
  ): { name: string; value: string; file: boolean; contentType?: string }[] {
    if (!isRecord(value)) return [];
    const resolved = this.resolver.resolve(schema, ctx, location);
    const properties =
      resolved && isRecord(resolved.value) && isRecord(resolved.value.properties)
        ? resolved.value.properties
        : {};
    return Object.entries(value).map(([name, field]) => {
      const property = this.resolver.resolve(properties[name], resolved?.ctx ?? ctx, location)?.value;
      const file =
        isRecord(property) &&
        (property.format === 'binary' ||
          property.format === 'base64' ||
          property.contentMediaType !== undefined ||
          (schemaType(property) === 'array' &&
            isRecord(property.items) &&
            property.items.format === 'binary'));
      const partEncoding =
        encoding && isRecord(encoding[name]) ? asString(encoding[name].contentType) : undefined;
      return {
        name,
        value: file ? '' : typeof field === 'string' ? field : jsonText(field),
        file,
        ...(partEncoding ? { contentType: partEncoding } : {}),
      };
    });
  }

  private formBody(
    contentType: string,
    fields: { name: string; value: string; file: boolean; contentType?: string }[],
    location: string,
    required: boolean,
  ): Body {
    if (contentType === 'multipart/form-data') {
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
      return { contentType, headerValue: multipartContentType(), required, payload: multipartBody(parts) };
    }
    return {
      contentType,
      required,
      payload: formUrlEncode(fields.map((f) => ({ key: f.name, value: f.value }))),
    };
  }

  /** The security requirement of the operation (or the document's) as the step's authorization. */
  private security(
    operation: Record<string, unknown>,
    location: string,
  ): { authorization: Authorization; headers: { name: string; value: string }[]; query: QueryPair[] } {
    const out = {
      authorization: noAuthorization(),
      headers: [] as { name: string; value: string }[],
      query: [] as QueryPair[],
    };
    const requirements = Array.isArray(operation.security)
      ? operation.security
      : Array.isArray(this.doc.security)
        ? this.doc.security
        : [];
    const first: unknown = requirements[0];
    if (!isRecord(first)) return out;
    const schemes = this.version.swagger2
      ? this.doc.securityDefinitions
      : isRecord(this.doc.components)
        ? this.doc.components.securitySchemes
        : undefined;
    let assigned = false;
    for (const [name, scopes] of Object.entries(first)) {
      const at = this.version.swagger2 ? `securityDefinitions.${name}` : `components.securitySchemes.${name}`;
      const resolved = isRecord(schemes)
        ? this.resolver.resolve(schemes[name], this.resolver.root, at)
        : undefined;
      if (resolved === undefined || !isRecord(resolved.value)) {
        this.warnOnce(
          at,
          `Security scheme ${name} is used by ${location} but not defined, so it is left out`,
        );
        continue;
      }
      const mapped = this.mapScheme(
        name,
        resolved.value,
        Array.isArray(scopes) ? scopes.map(String) : [],
        at,
      );
      if (mapped === undefined) continue;
      if (!assigned) {
        out.authorization = mapped;
        assigned = true;
      } else if (mapped.type === 'api_key') {
        // A second API key that the same requirement needs: sent as its own header or parameter.
        if (mapped.in === 'query') out.query.push({ key: mapped.keyName, value: '' });
        else out.headers.push({ name: mapped.keyName, value: '' });
      } else {
        this.warnOnce(
          `${at}:second`,
          `Security scheme ${name} is needed together with another one; only the first is applied`,
        );
      }
    }
    return out;
  }

  private mapScheme(
    name: string,
    scheme: Record<string, unknown>,
    scopes: string[],
    at: string,
  ): Authorization | undefined {
    const type = asString(scheme.type)?.toLowerCase();
    const unsupported = (what: string) => {
      this.warnOnce(
        at,
        `Security scheme ${name} (${what}) cannot be expressed in the plan, so it is left out`,
      );
      return undefined;
    };
    switch (type) {
      case 'basic':
        return authorization({ type: 'basic' });
      case 'http': {
        const httpScheme = asString(scheme.scheme)?.toLowerCase();
        if (httpScheme === 'bearer') {
          this.warnOnce(
            at,
            `Security scheme ${name} is bearer authentication: enter the token on the Authorization tab`,
          );
          return authorization({ type: 'bearer' });
        }
        if (httpScheme === 'basic') {
          this.warnOnce(
            at,
            `Security scheme ${name} is basic authentication: enter the user name and password on the Authorization tab`,
          );
          return authorization({ type: 'basic' });
        }
        return unsupported(`HTTP ${httpScheme ?? 'without a scheme'}`);
      }
      case 'apikey': {
        const where = asString(scheme.in);
        const keyName = asString(scheme.name);
        if (keyName === undefined || (where !== 'header' && where !== 'query')) {
          return unsupported(
            where === 'cookie'
              ? `an API key in cookie ${keyName ?? ''}`
              : 'an API key without a name or place',
          );
        }
        this.warnOnce(
          at,
          `Security scheme ${name} is an API key in ${where} ${keyName}: enter its value on the Authorization tab`,
        );
        return authorization({ type: 'api_key', keyName, in: where });
      }
      case 'oauth2': {
        const scope = scopes.join(' ');
        const flows = isRecord(scheme.flows) ? scheme.flows : undefined;
        const clientCredentials =
          flows && isRecord(flows.clientCredentials) ? flows.clientCredentials : undefined;
        const tokenUrl =
          asString(clientCredentials?.tokenUrl) ??
          (scheme.flow === 'application' ? asString(scheme.tokenUrl) : undefined);
        if (tokenUrl !== undefined) {
          this.warnOnce(
            at,
            `Security scheme ${name} is OAuth2 client credentials: enter the client id and secret on the Authorization tab`,
          );
          return authorization({ type: 'oauth2', tokenUrl, scope });
        }
        const flow = flows ? Object.keys(flows).join(', ') : (asString(scheme.flow) ?? 'unknown');
        this.warnOnce(
          at,
          `Security scheme ${name} is OAuth2 (${flow} flow), which needs a person to sign in: paste an access token as the bearer token`,
        );
        return authorization({ type: 'bearer' });
      }
      case 'openidconnect':
        this.warnOnce(
          at,
          `Security scheme ${name} is OpenID Connect: paste an access token as the bearer token`,
        );
        return authorization({ type: 'bearer' });
      case 'mutualtls':
        return unsupported('client certificates');
      default:
        return unsupported(type ?? 'no type');
    }
  }

  /** The base URL of an operation: the base URL option, else the nearest servers list, else the document's. */
  private baseFor(
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    location: string,
  ): string {
    const override = this.options.baseUrl?.trim();
    if (override) return override.replace(/\/+$/, '');
    if (this.version.swagger2) return this.swaggerBase();
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

  private swaggerBase(): string {
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

  private warn(location: string, message: string): void {
    this.warnings.push({ location, message });
  }

  private warnOnce(location: string, message: string): void {
    const key = `${location}\n${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warn(location.replace(/:[a-z]+$/, ''), message);
  }
}

interface Body {
  contentType: string;
  /** The Content-Type header when it differs from the media type (multipart's boundary). */
  headerValue?: string;
  required: boolean;
  payload: string;
}

/** JSON first (the spec takes the JSON example), then forms, text and XML, then whatever is listed first. */
function pickMediaType(types: readonly string[]): string | undefined {
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

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/** JSON text of an example; an example that is already JSON text is kept as written. */
function jsonText(value: unknown): string {
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
