import { BODY_METHODS, type HttpMethod } from '@aqa/plan';
import {
  asString,
  countMethods,
  type ExpectedResponse,
  type ImportInfo,
  ImportError,
  type ImportResult,
  type ImportWarning,
  isHttpMethod,
  isRecord,
  makeStep,
  neededValues,
  type StepSource,
} from './import-model';
import type { Body } from './openapi-bodies';
import { type SchemaDialect, SchemaInliner, successStatusKey } from './openapi-responses';
import {
  headerText,
  type Parameter,
  type ParameterFormat,
  pathText,
  queryPairs,
  scalarText,
  valueOrVariable,
  variableName,
} from './openapi-parameters';
import { type RefContext, RefResolver } from './openapi-refs';
import type { SecurityMapper } from './openapi-security';
import type { ImportSource } from './read-document';
import { joinUrl, type QueryPair, toPlanUrl } from './url-tools';

/**
 * What OpenAPI 3 and Swagger 2 share: paths and operations in document order, path-level and operation
 * parameters, security, and the step each operation becomes. Where the two differ (where a parameter's
 * value and style are written, request bodies, servers) a dialect subclass answers: openapi3-to-plan.ts
 * and swagger2-to-plan.ts.
 */

export interface OpenApiImportOptions {
  /** Replaces every server URL (and Swagger's scheme + host + basePath), e.g. "http://localhost:8080/api". */
  baseUrl?: string | undefined;
  /** The other files of a multi-file spec, by their path relative to this file ("paths/pets.yaml"). */
  files?: Readonly<Record<string, ImportSource>> | undefined;
  /**
   * Also write each operation's success response schema, its $refs inlined, into its source's
   * `response` (a functional test's schema rule; docs/design.md §9). Off for load tests, which do not
   * check bodies: an inlined schema can be large.
   */
  responseSchemas?: boolean | undefined;
}

/** Where the URLs start when the document names no server and no base URL was given. */
export const BASE_URL_PLACEHOLDER = '{{baseUrl}}';

const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

/** Header parameters that other fields of the step say (OpenAPI ignores these three as parameters). */
const IGNORED_HEADERS = ['accept', 'content-type', 'authorization'];

export abstract class OpenApiImport {
  protected readonly warnings: ImportWarning[] = [];
  protected readonly resolver: RefResolver;
  private readonly reported = new Set<string>();
  private readonly servers = new Set<string>();
  /** Optional parameters left out because the document gives them no value. */
  private skipped = 0;

  /** "Swagger 2.0", "OpenAPI 3.1.0". */
  protected abstract readonly kind: string;
  /** Whether a document without paths is still a document (OpenAPI 3.1 and later). */
  protected abstract readonly pathsOptional: boolean;
  /** Parameter places other than path, query, header and cookie that this dialect has (Swagger's body, formData). */
  protected abstract readonly bodyPlaces: readonly string[];

  constructor(
    protected readonly doc: Record<string, unknown>,
    protected readonly file: string,
    protected readonly options: OpenApiImportOptions,
  ) {
    this.resolver = new RefResolver(doc, file, options.files ?? {}, this.warnings);
  }

  /** The value the document gives a parameter (an example, default or enum value), else undefined. */
  protected abstract parameterValue(param: Parameter, location: string): unknown;
  /** How the parameter's value is written: its style and explode, or its collectionFormat. */
  protected abstract parameterFormat(param: Parameter): ParameterFormat;
  /** The request body, from the operation (OpenAPI 3) or its body / formData parameters (Swagger 2). */
  protected abstract body(
    operation: Record<string, unknown>,
    bodyParams: Parameter[],
    ctx: RefContext,
    location: string,
  ): Body | undefined;
  /** The base URL of the operation, without a trailing slash, when no base URL option replaces it. */
  protected abstract documentBase(
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    location: string,
  ): string;
  protected abstract securityMapper(): SecurityMapper;
  /** How the document writes its schemas. */
  protected abstract readonly schemaDialect: SchemaDialect;
  /** The schema of a response's JSON body as written (a $ref or a schema), or undefined without one. */
  protected abstract responseBodySchema(
    response: Record<string, unknown>,
    operation: Record<string, unknown>,
  ): unknown;

  run(): ImportResult {
    const { doc } = this;
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

    const { paths, pathsCtx } = this.paths();
    const security = this.securityMapper();
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
      for (const [key, operation] of operations(item.value)) {
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
        const built = this.operationStep(path, method, operation, item.value, item.ctx, at, security);
        if (built) {
          steps.push(built.step);
          sources.push(built.source);
        }
      }
    }
    if (this.skipped > 0) {
      this.warn(
        'parameters',
        `${this.skipped} optional parameter${this.skipped === 1 ? ' has' : 's have'} no example, default or enum value in the document, so ${this.skipped === 1 ? 'it is' : 'they are'} not sent; add one by hand where a test needs it`,
      );
    }

    const result: ImportInfo = {
      format: 'swagger',
      kind: this.kind,
      title: asString(info?.title)?.trim() || this.file,
      version: asString(info?.version),
      servers: [...this.servers],
      requests: methods.length,
      methods: countMethods(methods),
      paths: pathCount,
    };
    return {
      steps,
      sources,
      warnings: this.warnings,
      info: result,
      needsValue: neededValues(steps, sources),
    };
  }

  private paths(): { paths: Record<string, unknown>; pathsCtx: RefContext } {
    const root = this.resolver.root;
    if (this.doc.paths === undefined || this.doc.paths === null) {
      if (!this.pathsOptional) {
        throw new ImportError(
          this.file,
          'the document has no paths object, so it describes no operations to import',
        );
      }
      this.warn('paths', 'The document has no paths, so it describes no operations to import');
      return { paths: {}, pathsCtx: root };
    }
    const resolved = this.resolver.resolve(this.doc.paths, root, 'paths');
    if (resolved === undefined || !isRecord(resolved.value)) {
      const reason = this.warnings.find((w) => w.location === 'paths')?.message;
      throw new ImportError(
        this.file,
        reason ? `the paths object cannot be read. ${reason}` : 'the paths object is not a map of paths',
      );
    }
    return { paths: resolved.value, pathsCtx: resolved.ctx };
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

  /** The parameter's value, a {{variable}} when it must be sent without one, or undefined (not sent). */
  protected valueOf(param: Parameter, location: string): unknown {
    const value = valueOrVariable(param, this.parameterValue(param, location));
    if (value === undefined) this.skipped++;
    return value;
  }

  private operationStep(
    path: string,
    method: HttpMethod,
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    ctx: RefContext,
    location: string,
    security: SecurityMapper,
  ) {
    const query: QueryPair[] = [];
    const headers: { name: string; value: string }[] = [];
    const cookies: string[] = [];
    const pathValues = new Map<string, string>();
    const bodyParams: Parameter[] = [];

    for (const param of this.parameters(item, operation, ctx, location)) {
      if (this.bodyPlaces.includes(param.in)) {
        bodyParams.push(param);
        continue;
      }
      if (param.in === 'header' && IGNORED_HEADERS.includes(param.name.toLowerCase())) continue;
      if (!['path', 'query', 'header', 'cookie'].includes(param.in)) {
        this.warn(
          `${location}.parameters`,
          `Parameter ${param.name} is "in: ${param.in}", which is not understood, so it is left out`,
        );
        continue;
      }
      const value = this.valueOf(param, location);
      if (value === undefined) continue;
      const format = this.parameterFormat(param);
      if (param.in === 'path') pathValues.set(param.name, pathText(param.name, value, format));
      else if (param.in === 'query') query.push(...queryPairs(param.name, value, format));
      else if (param.in === 'header') headers.push({ name: param.name, value: headerText(value, format) });
      else
        cookies.push(
          `${param.name}=${Array.isArray(value) ? value.map(scalarText).join(',') : scalarText(value)}`,
        );
    }
    if (cookies.length > 0) headers.push({ name: 'Cookie', value: cookies.join('; ') });

    const filledPath = path.replace(/\{([^{}]+)\}/g, (_match, name: string) => {
      const value = pathValues.get(name);
      if (value !== undefined && value !== '') return value;
      const variable = variableName(name);
      this.warn(
        location,
        `Path parameter ${name} is not described in the document; the URL holds {{${variable}}} to fill in`,
      );
      return `{{${variable}}}`;
    });

    const body = this.body(operation, bodyParams, ctx, location);
    if (body && body.contentType && BODY_METHODS.includes(method))
      headers.push({ name: 'Content-Type', value: body.headerValue ?? body.contentType });

    const auth = security.map(operation, location);
    headers.push(...auth.headers);
    query.push(...auth.query);

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
        authorization: auth.authorization,
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
      response: this.expectedResponse(operation, ctx, location, `${method} ${path}`),
      tags: Array.isArray(operation.tags)
        ? operation.tags.filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '')
        : [],
      operationId: asString(operation.operationId)?.trim() || undefined,
    };
    return { step, source };
  }

  /** The success the operation documents: its status, and its body's schema when asked for. */
  private expectedResponse(
    operation: Record<string, unknown>,
    ctx: RefContext,
    location: string,
    call: string,
  ): ExpectedResponse {
    const responses = operation.responses;
    const success = isRecord(responses) ? successStatusKey(responses) : undefined;
    if (!isRecord(responses) || success === undefined) return { status: 200 };
    const { status } = success;
    if (this.options.responseSchemas !== true) return { status };
    const at = `${location}.responses.${success.key}`;
    const resolved = this.resolver.resolve(responses[success.key], ctx, at);
    if (resolved === undefined || !isRecord(resolved.value)) return { status };
    const schema = this.responseBodySchema(resolved.value, operation);
    if (schema === undefined || schema === null) return { status };
    const inliner = new SchemaInliner(this.resolver, this.schemaDialect, (ref) =>
      this.warnOnce(
        ref,
        'This schema refers back to itself: a schema rule checks a response down to where it recurs and accepts anything deeper',
      ),
    );
    const inlined = inliner.inline(schema, resolved.ctx, at);
    if ('problem' in inlined) {
      this.warn(at, `${call} gets no schema rule, only its status: ${inlined.problem}`);
      return { status };
    }
    // Swagger 2's "file" is a download, not JSON: there is nothing to check it against.
    if (inlined.schema.type === 'file') return { status };
    return { status, schema: inlined.schema };
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

  /** The base URL of an operation: the base URL option, else what the document says. */
  private baseFor(
    operation: Record<string, unknown>,
    item: Record<string, unknown>,
    location: string,
  ): string {
    const override = this.options.baseUrl?.trim();
    if (override) return override.replace(/\/+$/, '');
    return this.documentBase(operation, item, location);
  }

  protected warn(location: string, message: string): void {
    this.warnings.push({ location, message });
  }

  /** A warning said once however many operations meet it; ":suffix" in the location keeps two apart. */
  protected warnOnce(location: string, message: string): void {
    const key = `${location}\n${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warn(location.replace(/:[a-z]+$/, ''), message);
  }
}

/** [key, operation] in the order written; OpenAPI 3.2's additionalOperations after the fixed ones. */
function operations(item: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(item)) {
    if (OPERATION_KEYS.includes(key)) out.push([key, value]);
    else if (key === 'additionalOperations' && isRecord(value)) {
      for (const [method, op] of Object.entries(value)) out.push([method.toLowerCase(), op]);
    }
  }
  return out;
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}
