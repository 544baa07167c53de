import {
  type Authorization,
  type DataSource,
  type LoadProfile,
  BODY_METHODS,
  type HttpMethod,
  HEADER_NAME,
  HTTP_METHODS,
  noAuthorization,
  type UrlEntry,
  type UrlEntryInput,
  UrlEntrySchema,
  templateVariables,
} from '@aqa/plan';

/**
 * What every importer returns: the plan's URL entries (with `name`), what could not be carried over as
 * warnings (never a silent drop, never a crash), and facts about the document for the screen (title,
 * servers, counts). A document that cannot be read at all is an ImportError instead.
 */

export const IMPORT_FORMATS = ['swagger', 'postman', 'har', 'curl', 'csv', 'excel', 'taurus'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportWarning {
  /** Where in the source: "paths./pets/{petId}.get", "Folder / Request", "entries[3]", "row 4". */
  location: string;
  message: string;
}

/**
 * The success an operation documents; StepSource.response. It is read by openapi-responses.ts and
 * lives here, with the rest of the import model, so the model imports no reader.
 */
export interface ExpectedResponse {
  /** The lowest 2xx status the operation documents (a "2XX" range counts as 200), else 200. */
  status: number;
  /**
   * The JSON Schema of that response's JSON body with every $ref inlined; absent when the response has
   * no JSON body, when schemas were not asked for, or when one could not be written (see the warnings).
   */
  schema?: Record<string, unknown>;
}

/** Where one step came from, parallel to `steps`. */
export interface StepSource {
  /** The same place as in warnings. */
  location: string;
  /** The path as the document writes it ("/pets/{petId}"), or the URL's path for recorded requests. */
  path: string;
  /** The method as the source writes it, upper-case ("TRACE" stays "TRACE" even though it is skipped). */
  method: string;
  /** The request body's media type and whether the document requires one; null without a body. */
  requestBody: { contentType: string; required: boolean } | null;
  /** What the operation answers on success (OpenAPI and Swagger only): status, and its JSON body's schema. */
  response?: ExpectedResponse | undefined;
  /**
   * What the import screen filters by (docs/reference/01-authoring.md §2 "Performance: script upload"):
   * an OpenAPI operation's tags, a Postman request's folders (outermost first); none for HAR and tables.
   */
  tags?: string[] | undefined;
  /** An OpenAPI operation's operationId, when it has one. */
  operationId?: string | undefined;
}

export interface ImportInfo {
  format: ImportFormat;
  /** What the document is, in words: "OpenAPI 3.0.3", "Swagger 2.0", "Postman collection v2.1.0", "HAR 1.2". */
  kind: string;
  title: string;
  /** The document's own version (info.version), when it has one. */
  version?: string | undefined;
  /** The base URLs the steps use, after server variables and a base URL override. */
  servers: string[];
  /** Requests in the source: OpenAPI operations (path × method), Postman requests in every folder, HAR entries, rows. */
  requests: number;
  /** Requests by method as the source writes them, upper-case: { GET: 8, POST: 7 }. */
  methods: Record<string, number>;
  /** Folders (Postman), paths (OpenAPI) or pages (HAR), where the format has them. */
  folders?: number;
  paths?: number;
  pages?: number;
}

/** A {{variable}} the imported calls send that nothing in the plan gives a value (see neededValues). */
export interface NeededValue {
  name: string;
  /** The calls that send it, as "GET /pets/{petId}", in plan order, each once. */
  calls: string[];
}

/**
 * What a source says of the plan besides its calls: a Taurus execution's load and data sources
 * (docs/adr/0027-load-profiles.md "Importers"), in the plan's own fields.
 */
export interface ImportedSettings {
  concurrent_users: number;
  /** Minutes. */
  duration: number;
  load_profile?: LoadProfile;
  data_sources?: DataSource[];
  /** The data sources' files the upload carried, by the name the sources give. */
  data_files?: Record<string, string>;
  /** Files the data sources read that the upload did not carry: attach them before saving. */
  missing_files: string[];
}

export interface ImportResult {
  steps: UrlEntry[];
  /** One per step, in the same order. */
  sources: StepSource[];
  warnings: ImportWarning[];
  info: ImportInfo;
  /** Variables the calls send as {{name}} with no value yet: the import summary lists them as "needs a value". */
  needsValue: NeededValue[];
  /** Only from a source that says more than its calls (a Taurus configuration). */
  settings?: ImportedSettings;
}

/** A document that cannot be imported: which file, what is wrong, where. `message` says all three. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly file: string;
  readonly problem: string;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    file: string,
    problem: string,
    options: { line?: number | undefined; column?: number | undefined; cause?: unknown } = {},
  ) {
    super(`${file}: ${problem}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.file = file;
    this.problem = problem;
    this.line = options.line;
    this.column = options.column;
  }
}

/** The name a document is called by in messages when the caller gave none. */
export const UNNAMED_FILE = 'the uploaded file';

export function isHttpMethod(method: string): method is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(method);
}

export { noAuthorization };

export function authorization(fields: Partial<Authorization>): Authorization {
  return { ...noAuthorization(), ...fields };
}

/** An entry as an importer reads it, before makeStep() fits it to the model. */
export type StepDraft = Omit<UrlEntryInput, 'name' | 'url' | 'headers' | 'parameters'> & {
  name: string;
  url: string;
  headers?: { name: string; value: string }[];
  parameters?: { key: string; value: string }[];
};

/** What an imported call's think time is when its source gives none: no pause. */
export const NO_THINK_TIME = '0';

/** The longest text a URL entry holds in one field (the model's limits). */
const MAX_FIELD = 8192;
const MAX_PAYLOAD = 1_000_000;
const MAX_PAIRS = 200;
const MAX_NAME = 200;

/**
 * Turns what an importer read into a URL entry the model accepts, repairing what the model would refuse
 * (a header name with a space, a line break in a value, more than 200 parameters, an over-long name) and
 * saying so in `warnings`. Returns null, with a warning, only when the URL itself cannot be made valid.
 */
export function makeStep(input: StepDraft, location: string, warnings: ImportWarning[]): UrlEntry | null {
  const warn = (message: string) => warnings.push({ location, message });
  const headers: { name: string; value: string }[] = [];
  for (const header of input.headers ?? []) {
    const name = header.name;
    let value = header.value;
    const trimmed = name.trim();
    if (trimmed === '' && value.trim() === '') continue;
    if (!HEADER_NAME.test(trimmed)) {
      warn(
        `Header "${trimmed}" is left out: a header name may hold only letters, digits and !#$%&'*+-.^_\`|~`,
      );
      continue;
    }
    if (/[\r\n]/.test(value)) {
      value = value.replace(/\s*[\r\n]+\s*/g, ' ');
      warn(`The line breaks in the value of header ${trimmed} are replaced by spaces`);
    }
    headers.push({ name: trimmed, value: clip(value, MAX_FIELD, `header ${trimmed}`, warn) });
  }
  const parameters = (input.parameters ?? []).map((p) => ({
    key: clip(p.key, MAX_FIELD, 'a parameter name', warn),
    value: clip(p.value, MAX_FIELD, `parameter ${p.key}`, warn),
  }));
  if (parameters.length > MAX_PAIRS) {
    warn(`Only the first ${MAX_PAIRS} of ${parameters.length} query parameters are kept`);
    parameters.length = MAX_PAIRS;
  }
  if (headers.length > MAX_PAIRS) {
    warn(`Only the first ${MAX_PAIRS} of ${headers.length} headers are kept`);
    headers.length = MAX_PAIRS;
  }
  let name = input.name.replace(/\s+/g, ' ').trim();
  if (name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME - 1)}…`;
  let payload = input.payload ?? '';
  if (
    payload !== '' &&
    !(BODY_METHODS as readonly string[]).includes(String(input.method ?? 'GET').toUpperCase())
  ) {
    warn(
      `The body is left out: the plan sends a body only with POST, PUT and PATCH, not with ${String(input.method)}`,
    );
    payload = '';
  }
  const entry = {
    ...input,
    // An imported call pauses only where its source says so; the form's 5 s default is for calls a person
    // adds, and 417 calls of 5 s each would make one iteration last 35 minutes.
    thinkTime: input.thinkTime ?? NO_THINK_TIME,
    name,
    url: input.url,
    headers,
    parameters,
    payload: payload.length > MAX_PAYLOAD ? clip(payload, MAX_PAYLOAD, 'the body', warn) : payload,
  };
  const parsed = UrlEntrySchema.safeParse(entry);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`);
  warn(`This request is left out: ${problems.join('; ')}`);
  return null;
}

function clip(text: string, max: number, what: string, warn: (message: string) => void): string {
  if (text.length <= max) return text;
  warn(`${what} is cut to ${max} characters`);
  return text.slice(0, max);
}

/** Counts by upper-case method, in first-seen order. */
export function countMethods(methods: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const method of methods) counts[method] = (counts[method] ?? 0) + 1;
  return counts;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return undefined;
}

/** The last path segment of a file name, for messages ("specs/api.yaml" → "api.yaml"). */
export function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

/** The fields in which a {{variable}} is expanded when the call is sent (TEMPLATED_FIELDS of the plan). */
function templatedTexts(step: UrlEntry): string[] {
  const auth = step.authorization;
  return [
    step.url,
    ...step.parameters.map((p) => p.value),
    ...step.headers.map((h) => h.value),
    step.payload,
    auth.token,
    auth.username,
    auth.password,
    auth.keyValue,
  ];
}

/**
 * Every {{variable}} the steps send that no earlier step extracts, with the calls that send it. Such a
 * variable goes out as the literal text "{{name}}" (the engine keeps a template it has no value for), so
 * the import summary must name it rather than let the calls fail unseen.
 */
export function neededValues(steps: readonly UrlEntry[], sources: readonly StepSource[]): NeededValue[] {
  const extracted = new Set<string>();
  const needed = new Map<string, string[]>();
  steps.forEach((step, index) => {
    const source = sources[index];
    const call = source ? `${source.method} ${source.path}` : `${step.method} ${step.url}`;
    for (const text of templatedTexts(step)) {
      for (const name of templateVariables(text)) {
        if (extracted.has(name)) continue;
        const calls = needed.get(name) ?? [];
        if (!calls.includes(call)) calls.push(call);
        needed.set(name, calls);
      }
    }
    if (step.extractName !== '') extracted.add(step.extractName);
  });
  return [...needed].map(([name, calls]) => ({ name, calls }));
}
