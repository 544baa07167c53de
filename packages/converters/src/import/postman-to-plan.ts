import { type Authorization, BODY_METHODS } from '@aqa/plan';
import {
  asString,
  authorization,
  countMethods,
  ImportError,
  type ImportResult,
  type ImportWarning,
  isHttpMethod,
  isRecord,
  makeStep,
  noAuthorization,
  type StepSource,
  neededValues,
} from './import-model';
import { topKeys } from './openapi-to-plan';
import { MAX_NESTING, valueNestsTooDeep } from './nesting';
import { type ImportSource, readStructured } from './read-document';
import {
  formUrlEncode,
  type MultipartPart,
  multipartBody,
  multipartContentType,
  type QueryPair,
  splitQuery,
  toPlanUrl,
  urlPath,
} from './url-tools';

/**
 * Postman collections v2.0 / v2.1 (and the legacy v1 format) → plan steps, one per request in the order
 * Postman runs them (folders depth-first). Authorization is inherited from the nearest folder or the
 * collection, {{variables}} with a value in the collection (or a given environment) are filled in and the
 * others kept as written, :path variables take their value, disabled headers and parameters are dropped.
 * readPostmanCollection reads one for a functional plan: {{variables}} kept, and each request's folders
 * and scripts beside it (docs/adr/0029-postman-collections.md).
 */

export interface PostmanImportOptions {
  /**
   * A Postman environment or globals file, or plain name → value pairs, whose values fill the {{variables}}
   * the collection leaves open (an environment wins over the collection's own variables, as in Postman).
   */
  environment?: ImportSource | Readonly<Record<string, string>> | undefined;
  /**
   * Keep every {{variable}} as written rather than filling in the collection's and environment's values:
   * a functional plan carries the variables themselves (docs/adr/0029-postman-collections.md).
   */
  keepVariables?: boolean | undefined;
  /**
   * The plan being made runs the collection's scripts (a functional plan keeps them, ADR 0029). Without
   * it the plan is a load test's, which sends the calls only, and one warning counts the scripts left out.
   */
  scriptsRun?: boolean | undefined;
}

/** One script of a Postman event, as the item (or a folder above it) holds it. */
export interface PostmanScript {
  /** "collection", "folder NAME" or "request". */
  origin: string;
  listen: 'prerequest' | 'test';
  source: string;
}

/** What a request brings beside its call: its folders and the scripts that run around it. */
export interface PostmanStepExtra {
  /** Its folders, outermost first. */
  folders: string[];
  /** The folders' scripts (outermost first), then the request's own; the collection's are apart. */
  scripts: PostmanScript[];
  /** The request's description (text, or a description object's content); scripts read it. */
  description?: string;
}

/** A collection read for a functional plan: the import, and what a functional plan keeps beside it. */
export interface PostmanReading {
  result: ImportResult;
  /** One per step, in the same order. */
  extras: PostmanStepExtra[];
  collectionScripts: PostmanScript[];
  /** The collection's variables (enabled ones, in order; a later one of the same name wins). */
  variables: { name: string; value: string }[];
}

/** A collection read for a functional plan: {{variables}} kept, scripts and folders with each step. */
export function readPostmanCollection(source: ImportSource): PostmanReading {
  const { value, file } = readStructured(source);
  const collection = checkedCollection(value, file);
  const reading = new PostmanImport(
    collection,
    file,
    !(isRecord(value) && Array.isArray(value.item)),
    new Map(),
    true,
  );
  const result = reading.run();
  return {
    result,
    extras: reading.extras,
    collectionScripts: reading.collectionScripts,
    variables: [...reading.collectionVariables].map(([name, value]) => ({ name, value })),
  };
}

export function postmanToPlan(source: ImportSource, options: PostmanImportOptions = {}): ImportResult {
  const { value, file } = readStructured(source);
  return postmanDocumentToPlan(value, file, options);
}

/** What a JSON value is, when it is some Postman file other than a collection; undefined otherwise. */
export function postmanNonCollection(doc: unknown): string | undefined {
  if (Array.isArray(doc)) {
    if (doc.length > 0 && doc.every((v) => isRecord(v) && 'key' in v && 'value' in v)) {
      return `a Postman globals file (${doc.length} variables), not a collection`;
    }
    return `a JSON array (${doc.length} ${doc.length === 1 ? 'row' : 'rows'}, like a data file for a collection run), not a collection`;
  }
  if (!isRecord(doc)) return undefined;
  const scope = asString(doc._postman_variable_scope);
  if (Array.isArray(doc.values) && doc.item === undefined && doc.requests === undefined) {
    const kind = scope === 'globals' ? 'globals file' : 'environment';
    return `a Postman ${kind} (${doc.values.length} variables), not a collection; import the collection it goes with`;
  }
  return undefined;
}

export function isPostmanCollection(doc: unknown): boolean {
  if (!isRecord(doc)) return false;
  if (Array.isArray(doc.item)) return true;
  if (isRecord(doc.info) && asString(doc.info.schema)?.includes('getpostman.com')) return true;
  return Array.isArray(doc.requests) && (Array.isArray(doc.order) || typeof doc.id === 'string');
}

export function postmanDocumentToPlan(
  doc: unknown,
  file: string,
  options: PostmanImportOptions = {},
): ImportResult {
  const collection = checkedCollection(doc, file);
  const reading = new PostmanImport(
    collection,
    file,
    !(isRecord(doc) && Array.isArray(doc.item)),
    environmentValues(options.environment),
    options.keepVariables === true,
  );
  const result = reading.run();
  if (options.scriptsRun !== true) {
    const note = scriptsLeftOut(reading.scriptsMet);
    if (note !== undefined) result.warnings.push({ location: 'collection', message: note });
  }
  return result;
}

/**
 * Says how many scripts a load plan leaves out: a load test sends the calls only, and an API test is where
 * a collection's tests and pre-request scripts run (docs/adr/0029-postman-collections.md).
 */
function scriptsLeftOut(scripts: readonly PostmanScript[]): string | undefined {
  const tests = scripts.filter((s) => s.listen === 'test').length;
  const pre = scripts.length - tests;
  if (scripts.length === 0) return undefined;
  const counted = [
    tests > 0 ? `${tests} test ${tests === 1 ? 'script' : 'scripts'}` : '',
    pre > 0 ? `${pre} pre-request ${pre === 1 ? 'script' : 'scripts'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `The collection's ${counted} ${scripts.length === 1 ? 'is' : 'are'} not run by a load test, which sends the calls only; import the collection as an API test to run them`;
}

/** The collection of a document (a v1 one in the v2 shape), or an ImportError saying what it is. */
function checkedCollection(doc: unknown, file: string): Json {
  const other = postmanNonCollection(doc);
  if (other) throw new ImportError(file, `this is ${other}`);
  if (!isPostmanCollection(doc) || !isRecord(doc)) {
    throw new ImportError(
      file,
      isRecord(doc)
        ? `this is not a Postman collection: it has no "item" list (v2) or "requests" list (v1); its top-level keys are ${topKeys(doc)}`
        : 'this is not a Postman collection: it is not a JSON object',
    );
  }
  return Array.isArray(doc.item) ? doc : fromV1(doc);
}

type Json = Record<string, unknown>;

class PostmanImport {
  private readonly warnings: ImportWarning[] = [];
  private readonly variables = new Map<string, string>();
  private readonly reported = new Set<string>();
  private readonly steps: ImportResult['steps'] = [];
  private readonly sources: StepSource[] = [];
  private readonly methods: string[] = [];
  private readonly hosts = new Set<string>();
  private folders = 0;
  readonly extras: PostmanStepExtra[] = [];
  readonly collectionScripts: PostmanScript[] = [];
  /** Every script of the collection once (a folder's where the folder is met, not per request). */
  readonly scriptsMet: PostmanScript[] = [];
  /** The collection's own variables, blank ones too (a script may set them later). */
  readonly collectionVariables = new Map<string, string>();

  constructor(
    private readonly collection: Json,
    private readonly file: string,
    private readonly v1: boolean,
    environment: ReadonlyMap<string, string>,
    private readonly keepVariables = false,
  ) {
    for (const list of [collection.variable, collection.variables]) {
      for (const variable of Array.isArray(list) ? list : []) {
        if (!isRecord(variable) || variable.disabled === true) continue;
        const key = asString(variable.key) ?? asString(variable.id);
        const value = asString(variable.value);
        if (key !== undefined && key.trim() !== '') this.collectionVariables.set(key, value ?? '');
        if (key !== undefined && value !== undefined && value !== '') this.variables.set(key, value);
      }
    }
    for (const [key, value] of environment) if (value !== '') this.variables.set(key, value);
  }

  run(): ImportResult {
    const info = isRecord(this.collection.info) ? this.collection.info : {};
    const title = asString(info.name)?.trim() || asString(this.collection.name)?.trim() || this.file;
    this.collectionScripts.push(...scriptsOf(this.collection.event, 'collection'));
    this.scriptsMet.push(...this.collectionScripts);
    this.walk(this.collection.item, [], [], this.auth(this.collection.auth) ?? noAuthorization());
    return {
      steps: this.steps,
      sources: this.sources,
      warnings: this.warnings,
      info: {
        format: 'postman',
        kind: this.kind(info),
        title,
        version: asString(info.version),
        servers: [...this.hosts],
        requests: this.methods.length,
        methods: countMethods(this.methods),
        folders: this.folders,
      },
      needsValue: neededValues(this.steps, this.sources),
    };
  }

  private kind(info: Json): string {
    if (this.v1) return 'Postman collection v1';
    const schema = asString(info.schema) ?? '';
    const version = /v(\d+\.\d+\.\d+)/.exec(schema)?.[1];
    return version ? `Postman collection v${version}` : 'Postman collection v2';
  }

  private walk(items: unknown, folders: string[], scripts: PostmanScript[], inherited: Authorization): void {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isRecord(item)) continue;
      const name = asString(item.name)?.trim() || '(unnamed)';
      if (Array.isArray(item.item)) {
        this.folders++;
        const path = [...folders, name];
        const own = scriptsOf(item.event, `folder ${name}`);
        this.scriptsMet.push(...own);
        this.walk(item.item, path, [...scripts, ...own], this.auth(item.auth, path.join(' / ')) ?? inherited);
      } else if (item.request !== undefined) {
        this.request(item, name, folders, scripts, inherited);
      }
    }
  }

  private request(
    item: Json,
    name: string,
    folders: string[],
    scripts: PostmanScript[],
    inherited: Authorization,
  ): void {
    const location = [...folders, name].join(' / ');
    const request: Json = isRecord(item.request) ? item.request : { url: item.request };
    const method = (asString(request.method)?.trim() || 'GET').toUpperCase();
    this.methods.push(method);
    if (!isHttpMethod(method)) {
      this.warn(
        location,
        `${method} is not a method the plan can send (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS), so this request is left out`,
      );
      return;
    }

    const { url, query } = this.url(request.url, location);
    const headers = this.headers(request.header, location);
    const body = this.body(request.body, location);
    if (body.contentType && BODY_METHODS.includes(method)) {
      const at = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
      // A multipart body's boundary must be the one in the header, so ours replaces one written by hand.
      if (at === -1) headers.push({ name: 'Content-Type', value: body.contentType });
      else if (body.contentType.startsWith('multipart/') && headers[at]) headers[at].value = body.contentType;
    }
    const auth = this.auth(request.auth, location) ?? inherited;

    const step = makeStep(
      { name, method, url, parameters: query, headers, authorization: auth, payload: body.payload },
      location,
      this.warnings,
    );
    if (step === null) return;
    this.steps.push(step);
    const own = scriptsOf(item.event, 'request');
    this.scriptsMet.push(...own);
    const description = descriptionOf(request.description);
    this.extras.push({ folders, scripts: [...scripts, ...own], ...(description ? { description } : {}) });
    this.sources.push({
      location,
      path: urlPath(url),
      method,
      requestBody: body.mode ? { contentType: body.contentType ?? '', required: false } : null,
      tags: folders,
    });
  }

  private url(raw: unknown, location: string): { url: string; query: QueryPair[] } {
    let text: string;
    let query: QueryPair[] | undefined;
    let pathVariables: Map<string, string> = new Map();
    if (isRecord(raw)) {
      const rawText = asString(raw.raw) ?? '';
      text = rawText.trim() === '' ? urlFromParts(raw) : rawText;
      if (Array.isArray(raw.query)) {
        query = [];
        for (const q of raw.query) {
          if (!isRecord(q) || q.disabled === true || q.enabled === false) continue;
          const key = asString(q.key) ?? '';
          const value = asString(q.value) ?? '';
          if (key === '' && value === '') continue;
          query.push({ key: this.fill(key, location), value: this.fill(value, location) });
        }
      }
      pathVariables = pairsOf(raw.variable);
    } else {
      text = asString(raw) ?? '';
    }
    const split = splitQuery(this.fill(text.trim(), location));
    const pairs = query ?? split.query;
    const base = split.base.replace(/(^|\/):([A-Za-z_][\w.-]*)/g, (_m, slash: string, segment: string) => {
      // ":id.json" is the variable id followed by ".json" when the request names id and not id.json.
      let variable = segment;
      while (!pathVariables.has(variable) && variable.includes('.'))
        variable = variable.slice(0, variable.lastIndexOf('.'));
      if (!pathVariables.has(variable)) variable = segment;
      const rest = segment.slice(variable.length);
      const value = pathVariables.get(variable);
      if (value !== undefined && value !== '')
        return `${slash}${encodeKeepingTemplates(this.fill(value, location))}${rest}`;
      return `${slash}{{${variable}}}${rest}`;
    });
    if (base === '') this.warn(location, 'The request has no URL; it holds {{baseUrl}} to be filled in');
    const url = toPlanUrl(base === '' ? '{{baseUrl}}' : base);
    const host = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(url)?.[0] ?? /^\{\{[^}]+\}\}/.exec(url)?.[0];
    if (host) this.hosts.add(host);
    return { url, query: pairs };
  }

  private headers(raw: unknown, location: string): { name: string; value: string }[] {
    const headers: { name: string; value: string }[] = [];
    if (typeof raw === 'string') {
      for (const line of raw.split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon === -1 || line.trim().startsWith('//')) continue;
        headers.push({
          name: line.slice(0, colon).trim(),
          value: this.fill(line.slice(colon + 1).trim(), location),
        });
      }
      return headers;
    }
    if (!Array.isArray(raw)) return headers;
    for (const header of raw) {
      if (!isRecord(header) || header.disabled === true || header.enabled === false) continue;
      const name = asString(header.key) ?? asString(header.name) ?? '';
      headers.push({ name: name.trim(), value: this.fill(asString(header.value) ?? '', location) });
    }
    return headers;
  }

  private body(raw: unknown, location: string): { payload: string; contentType?: string; mode?: string } {
    if (!isRecord(raw) || raw.disabled === true) return { payload: '' };
    const mode = asString(raw.mode);
    switch (mode) {
      case 'raw': {
        const payload = this.fill(asString(raw.raw) ?? '', location);
        if (payload === '') return { payload };
        const options = isRecord(raw.options) && isRecord(raw.options.raw) ? raw.options.raw : {};
        const language = asString(options.language)?.toLowerCase();
        const contentType = language ? RAW_LANGUAGES[language] : undefined;
        return { payload, mode, ...(contentType ? { contentType } : {}) };
      }
      case 'urlencoded': {
        const pairs = enabledPairs(raw.urlencoded).map(({ key, value }) => ({
          key: this.fill(key, location),
          value: this.fill(value, location),
        }));
        if (pairs.length === 0) return { payload: '' };
        return { payload: formUrlEncode(pairs), mode, contentType: 'application/x-www-form-urlencoded' };
      }
      case 'formdata': {
        const parts: MultipartPart[] = [];
        const files: string[] = [];
        for (const field of Array.isArray(raw.formdata) ? raw.formdata : []) {
          if (!isRecord(field) || field.disabled === true || field.enabled === false) continue;
          const key = this.fill(asString(field.key) ?? '', location);
          if (field.type === 'file') {
            files.push(key);
            const src = Array.isArray(field.src) ? asString(field.src[0]) : asString(field.src);
            parts.push({
              name: key,
              value: '',
              fileName: src?.split(/[\\/]/).pop() || `${key || 'file'}.bin`,
              contentType: asString(field.contentType) ?? 'application/octet-stream',
            });
          } else {
            parts.push({
              name: key,
              value: this.fill(asString(field.value) ?? '', location),
              contentType: asString(field.contentType),
            });
          }
        }
        if (files.length > 0) {
          this.warn(
            location,
            `File field${files.length > 1 ? 's' : ''} ${files.join(', ')}: the file is not part of the collection, so an empty file part is sent until you replace it`,
          );
        }
        if (parts.length === 0) return { payload: '' };
        return { payload: multipartBody(parts), mode, contentType: multipartContentType() };
      }
      case 'graphql': {
        const graphql = isRecord(raw.graphql) ? raw.graphql : {};
        const query = this.fill(asString(graphql.query) ?? '', location);
        const variablesText = this.fill(asString(graphql.variables) ?? '', location).trim();
        let variables: unknown;
        if (variablesText !== '') {
          try {
            variables = JSON.parse(variablesText) as unknown;
          } catch {
            this.warn(location, 'The GraphQL variables are not valid JSON, so they are left out');
          }
          // Written out again below, by a serializer that recurses (docs/design.md §11 "Bad input").
          if (valueNestsTooDeep(variables)) {
            variables = undefined;
            this.warn(
              location,
              `The GraphQL variables nest more than ${MAX_NESTING} levels deep, so they are left out`,
            );
          }
        } else if (isRecord(graphql.variables)) {
          variables = graphql.variables;
        }
        const payload = JSON.stringify(variables === undefined ? { query } : { query, variables });
        return { payload, mode, contentType: 'application/json' };
      }
      case 'file':
        this.warn(location, 'The body is a file, which is not part of the collection; add the body by hand');
        return { payload: '', mode };
      default:
        return { payload: '' };
    }
  }

  /**
   * The authorization an auth object sets: undefined to inherit (absent, null, "inherit"); none for
   * "noauth"; none with a warning for a kind the plan cannot send.
   */
  private auth(raw: unknown, location = 'collection'): Authorization | undefined {
    if (!isRecord(raw)) return undefined;
    const type = asString(raw.type)?.toLowerCase();
    if (type === undefined || type === 'inherit') return undefined;
    const field = (key: string): string => this.fill(authField(raw[type], key) ?? '', location);
    switch (type) {
      case 'noauth':
        return noAuthorization();
      case 'bearer':
        return authorization({ type: 'bearer', token: field('token') });
      case 'basic':
        return authorization({ type: 'basic', username: field('username'), password: field('password') });
      case 'apikey': {
        const where = field('in') === 'query' ? 'query' : 'header';
        return authorization({ type: 'api_key', keyName: field('key'), keyValue: field('value'), in: where });
      }
      case 'oauth2': {
        const grant = field('grant_type');
        const tokenUrl = field('accessTokenUrl');
        if (grant === 'client_credentials' && tokenUrl !== '') {
          return authorization({
            type: 'oauth2',
            token: `${field('clientId')}:${field('clientSecret')}`,
            tokenUrl,
            scope: field('scope'),
          });
        }
        const token = field('accessToken');
        if (token === '') {
          this.warnOnce(
            location,
            `OAuth2 (${grant || 'interactive'} grant) needs a person to sign in: paste an access token as the bearer token`,
          );
        }
        return authorization({ type: 'bearer', token });
      }
      default:
        this.warnOnce(
          `auth:${type}`,
          `${AUTH_NAMES[type] ?? type} authorization (first used by ${location}) cannot be expressed in the plan; the requests that use it are sent without authorization`,
        );
        return noAuthorization();
    }
  }

  /** {{name}} → its value where the collection or environment gives one; others are kept as written. */
  private fill(text: string, location: string): string {
    if (!text.includes('{{') || this.keepVariables) return text;
    let out = text;
    for (let pass = 0; pass < 5; pass++) {
      const next = out.replace(
        /\{\{([^{}]+)\}\}/g,
        (whole, name: string) => this.variables.get(name.trim()) ?? whole,
      );
      if (next === out) break;
      out = next;
    }
    const dynamic = /\{\{\s*(\$[A-Za-z]+)\s*\}\}/.exec(out);
    if (dynamic) {
      this.warnOnce(
        `dynamic:${dynamic[1] ?? ''}`,
        `Postman's dynamic variable {{${dynamic[1] ?? ''}}} (used first by ${location}) has no equivalent in the plan and is sent as written`,
      );
    }
    return out;
  }

  private warn(location: string, message: string): void {
    this.warnings.push({ location, message });
  }

  /** One warning per key: an auth kind or dynamic variable is reported where it is first met. */
  private warnOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warn(/^(dynamic|auth):/.test(key) ? 'collection' : key, message);
  }
}

const RAW_LANGUAGES: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  text: 'text/plain',
  javascript: 'application/javascript',
};

const AUTH_NAMES: Record<string, string> = {
  digest: 'Digest',
  oauth1: 'OAuth 1.0',
  hawk: 'Hawk',
  ntlm: 'NTLM',
  awsv4: 'AWS Signature',
  edgegrid: 'Akamai EdgeGrid',
  akamai: 'Akamai EdgeGrid',
  jwt: 'JWT',
  asap: 'ASAP',
};

/** A field of an auth kind: v2.1 writes [{key, value}], v2.0 writes {key: value}. */
function authField(fields: unknown, key: string): string | undefined {
  if (Array.isArray(fields)) {
    const found: unknown = fields.find((f) => isRecord(f) && f.key === key);
    return isRecord(found) ? asString(found.value) : undefined;
  }
  return isRecord(fields) ? asString(fields[key]) : undefined;
}

/**
 * The enabled, non-blank scripts of an item's events, in the order Postman runs them. As Postman's
 * collection library reads them (and Newman runs them), `event` may be one event instead of a list and
 * an event's `script` its source itself (text or lines) instead of `{exec}`.
 */
function scriptsOf(events: unknown, origin: string): PostmanScript[] {
  const scripts: PostmanScript[] = [];
  for (const event of Array.isArray(events) ? events : isRecord(events) ? [events] : []) {
    if (!isRecord(event) || event.disabled === true) continue;
    const listen = asString(event.listen);
    if (listen !== 'prerequest' && listen !== 'test') continue;
    const script = isRecord(event.script)
      ? event.script
      : typeof event.script === 'string' || Array.isArray(event.script)
        ? { exec: event.script }
        : {};
    const source = Array.isArray(script.exec)
      ? script.exec.map((line) => asString(line) ?? '').join('\n')
      : (asString(script.exec) ?? '');
    if (source.trim() !== '') scripts.push({ origin, listen, source });
  }
  return scripts;
}

/**
 * A path variable's value percent-encoded as one segment, its {{variables}} kept as written so that the
 * run can put their values in (issue #27 point 6: `{{order_id}}` became `%7B%7Border_id%7D%7D`).
 */
function encodeKeepingTemplates(text: string): string {
  return text
    .split(/(\{\{[^{}]*\}\})/)
    .map((piece, i) => (i % 2 === 1 ? piece : encodeURIComponent(piece)))
    .join('');
}

function pairsOf(list: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of Array.isArray(list) ? list : []) {
    if (!isRecord(pair)) continue;
    const key = asString(pair.key) ?? asString(pair.id);
    if (key !== undefined) map.set(key, asString(pair.value) ?? '');
  }
  return map;
}

function enabledPairs(list: unknown): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const pair of Array.isArray(list) ? list : []) {
    if (!isRecord(pair) || pair.disabled === true || pair.enabled === false) continue;
    pairs.push({ key: asString(pair.key) ?? '', value: asString(pair.value) ?? '' });
  }
  return pairs;
}

/** A URL from Postman's parts when its raw text is missing. */
function urlFromParts(url: Json): string {
  const host = Array.isArray(url.host) ? url.host.map(String).join('.') : (asString(url.host) ?? '');
  const path = Array.isArray(url.path) ? url.path.map(String).join('/') : (asString(url.path) ?? '');
  const protocol = asString(url.protocol);
  const port = asString(url.port);
  if (host === '') return '';
  return `${protocol ? `${protocol}://` : ''}${host}${port ? `:${port}` : ''}${path ? `/${path.replace(/^\//, '')}` : ''}`;
}

function environmentValues(environment: PostmanImportOptions['environment']): Map<string, string> {
  const values = new Map<string, string>();
  if (environment === undefined) return values;
  if (!('bytes' in environment || 'text' in environment)) {
    for (const [key, value] of Object.entries(environment))
      if (typeof value === 'string') values.set(key, value);
    return values;
  }
  const { value } = readStructured(environment);
  const list = Array.isArray(value) ? value : isRecord(value) ? value.values : undefined;
  for (const entry of Array.isArray(list) ? list : []) {
    if (!isRecord(entry) || entry.enabled === false || entry.disabled === true) continue;
    const key = asString(entry.key);
    const text = asString(entry.value);
    if (key !== undefined && text !== undefined) values.set(key, text);
  }
  return values;
}

/** A v1 collection in the v2 shape: folders (in their order) first, then the collection's own requests. */
function fromV1(doc: Json): Json {
  const requests = new Map<string, Json>();
  for (const request of Array.isArray(doc.requests) ? doc.requests : []) {
    if (isRecord(request) && typeof request.id === 'string') requests.set(request.id, request);
  }
  const folders = new Map<string, Json>();
  for (const folder of Array.isArray(doc.folders) ? doc.folders : []) {
    if (isRecord(folder) && typeof folder.id === 'string') folders.set(folder.id, folder);
  }
  const used = new Set<string>();
  const nested = new Set<string>();
  for (const folder of folders.values()) {
    for (const id of Array.isArray(folder.folders_order) ? folder.folders_order : []) nested.add(String(id));
  }
  const requestItems = (ids: unknown): Json[] =>
    (Array.isArray(ids) ? ids : []).flatMap((id) => {
      const request = requests.get(String(id));
      if (!request || used.has(String(id))) return [];
      used.add(String(id));
      return [v1Request(request)];
    });
  const visiting = new Set<string>();
  const folderItem = (folder: Json): Json => {
    const id = String(folder.id);
    visiting.add(id);
    const subfolders = (Array.isArray(folder.folders_order) ? folder.folders_order : [])
      .map((sub) => folders.get(String(sub)))
      .filter((sub): sub is Json => sub !== undefined && !visiting.has(String(sub.id)))
      .map(folderItem);
    return {
      name: folder.name,
      ...(folder.auth !== undefined ? { auth: folder.auth } : {}),
      // Postman lists a folder's subfolders before its own requests (as its v2 export does).
      item: [...subfolders, ...requestItems(folder.order)],
    };
  };
  const topOrder = Array.isArray(doc.folders_order)
    ? doc.folders_order.map((id) => folders.get(String(id))).filter((f): f is Json => f !== undefined)
    : [...folders.values()].filter((f) => !nested.has(String(f.id)));
  const items: Json[] = [...topOrder.map(folderItem), ...requestItems(doc.order)];
  // Requests that no order lists are still part of the collection: kept, after the others.
  for (const [id, request] of requests) if (!used.has(id)) items.push(v1Request(request));
  return { info: { name: doc.name }, auth: doc.auth, item: items, variable: doc.variables };
}

function v1Request(request: Json): Json {
  const mode = asString(request.dataMode);
  let body: Json | undefined;
  if (mode === 'raw') body = { mode: 'raw', raw: asString(request.rawModeData) ?? '' };
  else if (mode === 'urlencoded') body = { mode: 'urlencoded', urlencoded: request.data };
  else if (mode === 'params') body = { mode: 'formdata', formdata: request.data };
  else if (mode === 'binary') body = { mode: 'file' };
  else if (mode === 'graphql') body = { mode: 'graphql', graphql: request.graphqlModeData };
  const events: Json[] = [];
  const pre = asString(request.preRequestScript);
  const tests = asString(request.tests);
  if (pre?.trim()) events.push({ listen: 'prerequest', script: { exec: pre } });
  if (tests?.trim()) events.push({ listen: 'test', script: { exec: tests } });
  const variables = isRecord(request.pathVariables)
    ? Object.entries(request.pathVariables).map(([key, value]) => ({ key, value }))
    : [];
  return {
    name: request.name,
    event: events,
    request: {
      method: request.method,
      url: variables.length > 0 ? { raw: request.url, variable: variables } : request.url,
      header: request.headerData ?? request.headers,
      body,
      auth: request.auth ?? v1HelperAuth(request),
    },
  };
}

function v1HelperAuth(request: Json): Json | undefined {
  const helper = asString(request.currentHelper);
  const attributes = isRecord(request.helperAttributes) ? request.helperAttributes : {};
  switch (helper) {
    case 'basicAuth':
      return { type: 'basic', basic: { username: attributes.username, password: attributes.password } };
    case 'bearerAuth':
      return { type: 'bearer', bearer: { token: attributes.token } };
    case 'digestAuth':
      return { type: 'digest', digest: {} };
    case 'oAuth1':
      return { type: 'oauth1', oauth1: {} };
    case 'hawkAuth':
      return { type: 'hawk', hawk: {} };
    case 'awsSigV4':
      return { type: 'awsv4', awsv4: {} };
    default:
      return undefined;
  }
}

/** A Postman description as its text: a string, or the `content` of `{content, type}`. */
function descriptionOf(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (isRecord(raw) && typeof raw.content === 'string') return raw.content;
  return undefined;
}
