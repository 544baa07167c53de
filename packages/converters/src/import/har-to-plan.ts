import type { UrlEntry } from '@aqa/plan';
import {
  asString,
  countMethods,
  ImportError,
  type ImportResult,
  type ImportWarning,
  isHttpMethod,
  isRecord,
  makeStep,
  type StepDraft,
  type StepSource,
  neededValues,
} from './import-model';
import { topKeys } from './openapi-to-plan';
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
 * HAR 1.2 recordings (browser dev tools, proxies, har-to-k6 files) → plan steps, one per entry in the order
 * recorded. Headers the client sets by itself (cookies, HTTP/2 pseudo-headers, Host, Content-Length,
 * Connection) are dropped, since they are the recording browser's and would be wrong when replayed. The
 * har-to-k6 extensions are read where the plan has the same idea: `variables` become the step's extraction,
 * `checks` its assertion and `sleep` its think time.
 */

const DROPPED_HEADERS = new Set([
  'cookie',
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

export function harToPlan(source: ImportSource): ImportResult {
  const { value, file } = readStructured(source);
  return harDocumentToPlan(value, file);
}

/** A single HAR request object ({ method, url, httpVersion, ... }) rather than a whole recording. */
export function isHarRequest(doc: unknown): doc is Record<string, unknown> {
  return (
    isRecord(doc) &&
    typeof doc.method === 'string' &&
    typeof doc.url === 'string' &&
    (doc.httpVersion !== undefined || Array.isArray(doc.headers))
  );
}

export function isHar(doc: unknown): boolean {
  return isRecord(doc) && isRecord(doc.log) && Array.isArray(doc.log.entries);
}

export function harDocumentToPlan(doc: unknown, file: string): ImportResult {
  let entries: unknown[];
  let log: Record<string, unknown> = {};
  if (isHar(doc) && isRecord(doc) && isRecord(doc.log)) {
    log = doc.log;
    entries = doc.log.entries as unknown[];
  } else if (isHarRequest(doc)) {
    entries = [{ request: doc }];
  } else {
    throw new ImportError(
      file,
      isRecord(doc)
        ? `this is not a HAR file: it has no "log" object with "entries" (its top-level keys are ${topKeys(doc)})`
        : 'this is not a HAR file: it is not a JSON object',
    );
  }
  return new HarImport(file).run(entries, log);
}

class HarImport {
  private readonly warnings: ImportWarning[] = [];

  constructor(private readonly file: string) {}

  run(entries: unknown[], log: Record<string, unknown>): ImportResult {
    const steps: UrlEntry[] = [];
    const sources: StepSource[] = [];
    const methods: string[] = [];
    const origins = new Set<string>();
    // Names extracted by har-to-k6 `variables`, whose ${name} references become the plan's {{name}}.
    const extracted = new Set<string>();
    for (const entry of entries) {
      if (!isRecord(entry)) continue;
      for (const variable of Array.isArray(entry.variables) ? entry.variables : []) {
        const name = isRecord(variable) ? asString(variable.name) : undefined;
        if (name) extracted.add(name);
      }
    }
    // Think time set by a har-to-k6 `sleep` (others keep the plan's default), so a later "before" adds to it.
    const slept: boolean[] = [];

    entries.forEach((entry, index) => {
      const location = `entries[${index}]`;
      if (!isRecord(entry) || !isRecord(entry.request)) {
        this.warn(location, 'The entry has no request, so it is left out');
        return;
      }
      const request = entry.request;
      const method = (asString(request.method)?.trim() || 'GET').toUpperCase();
      methods.push(method);
      if (!isHttpMethod(method)) {
        this.warn(location, `${method} is not a method the plan can send, so this entry is left out`);
        return;
      }
      const refs = (text: string) =>
        text.replace(/\$\{([A-Za-z_][\w.-]*)\}/g, (whole, name: string) =>
          extracted.has(name) ? `{{${name}}}` : whole,
        );

      const rawUrl = refs(asString(request.url) ?? '');
      const split = splitQuery(rawUrl);
      const query: QueryPair[] =
        split.query.length > 0 || !Array.isArray(request.queryString)
          ? split.query
          : request.queryString.flatMap((q) =>
              isRecord(q) ? [{ key: asString(q.name) ?? '', value: refs(asString(q.value) ?? '') }] : [],
            );
      const url = toPlanUrl(split.base);
      const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(url)?.[0];
      if (origin) origins.add(origin);

      const headers: { name: string; value: string }[] = [];
      for (const header of Array.isArray(request.headers) ? request.headers : []) {
        if (!isRecord(header)) continue;
        const name = asString(header.name)?.trim() ?? '';
        if (name.startsWith(':') || DROPPED_HEADERS.has(name.toLowerCase())) continue;
        headers.push({ name, value: refs(asString(header.value) ?? '') });
      }
      const body = this.body(request.postData, location, refs);
      if (body.contentType && !headers.some((h) => h.name.toLowerCase() === 'content-type')) {
        headers.push({ name: 'Content-Type', value: body.contentType });
      }

      const draft: StepDraft = {
        name: entryName(entry, method, url),
        method,
        url,
        parameters: query,
        headers,
        payload: body.payload,
      };
      Object.assign(
        draft,
        this.extraction(entry.variables, location),
        this.assertion(entry.checks, location),
      );
      // The plan pauses after a step: a pause before this entry is the previous step's think time.
      const sleep = this.sleep(entry.sleep);
      if (sleep.before > 0) {
        const previous = steps[steps.length - 1];
        if (previous) {
          previous.thinkTime = `${(slept[steps.length - 1] ? msOf(previous.thinkTime) : 0) + sleep.before}ms`;
          slept[steps.length - 1] = true;
        } else {
          this.warn(
            location,
            `The pause of ${sleep.before} ms before the first request is left out: the plan pauses after a step`,
          );
        }
      }
      const hasSleep = sleep.after > 0;
      if (hasSleep) draft.thinkTime = `${sleep.after}ms`;

      const step = makeStep(draft, location, this.warnings);
      if (step === null) return;
      slept[steps.length] = hasSleep;
      steps.push(step);
      sources.push({
        location,
        path: urlPath(url),
        method,
        requestBody: body.contentType ? { contentType: body.contentType, required: true } : null,
      });
    });

    const creator = isRecord(log.creator) ? asString(log.creator.name) : undefined;
    const version = asString(log.version);
    return {
      steps,
      sources,
      warnings: this.warnings,
      info: {
        format: 'har',
        kind: version ? `HAR ${version}` : 'HAR',
        title: creator ? `${this.file} (recorded by ${creator})` : this.file,
        version,
        servers: [...origins],
        requests: methods.length,
        methods: countMethods(methods),
        pages: Array.isArray(log.pages) ? log.pages.length : 0,
      },
      needsValue: neededValues(steps, sources),
    };
  }

  private body(
    postData: unknown,
    location: string,
    refs: (text: string) => string,
  ): { payload: string; contentType?: string } {
    if (!isRecord(postData)) return { payload: '' };
    const mime = asString(postData.mimeType)?.trim() ?? '';
    const text = asString(postData.text);
    const params = Array.isArray(postData.params) ? postData.params.filter(isRecord) : [];
    if (text !== undefined && text !== '') {
      if (params.length > 0) {
        this.warn(
          location,
          'The entry has both postData.text and postData.params; the text is sent as recorded',
        );
      }
      if (/octet-stream|image\/|audio\/|video\//i.test(mime)) {
        this.warn(
          location,
          `The ${mime} body is imported as text, so it may not be sent byte for byte as recorded`,
        );
      }
      return { payload: refs(text), ...(mime ? { contentType: mime } : {}) };
    }
    if (params.length === 0) return { payload: '', ...(mime ? { contentType: mime } : {}) };
    if (mime.toLowerCase().startsWith('multipart/')) {
      const boundary = /boundary=("?)([^";]+)\1/i.exec(mime)?.[2];
      const files: string[] = [];
      const parts: MultipartPart[] = params.map((param) => {
        const name = asString(param.name) ?? '';
        const fileName = asString(param.fileName);
        if (fileName !== undefined) files.push(name);
        return {
          name,
          value:
            fileName !== undefined && /^data:[^,]*;base64,/.test(asString(param.value) ?? '')
              ? ''
              : refs(asString(param.value) ?? ''),
          fileName,
          contentType: asString(param.contentType),
        };
      });
      if (files.some((_f, i) => parts[i]?.value === '')) {
        this.warn(
          location,
          `File field ${files.map((f) => `"${f}"`).join(', ')}: the recorded content is binary and is not imported; an empty file part is sent until you replace it`,
        );
      }
      return boundary
        ? { payload: multipartBody(parts, boundary), contentType: mime }
        : { payload: multipartBody(parts), contentType: multipartContentType() };
    }
    const pairs = params.map((param) => ({
      key: asString(param.name) ?? '',
      value: refs(asString(param.value) ?? ''),
    }));
    return { payload: formUrlEncode(pairs), contentType: mime || 'application/x-www-form-urlencoded' };
  }

  /** har-to-k6 `variables`: type 0 JSONPath, 1 regular expression, 2 CSS selector (not in the plan). */
  private extraction(variables: unknown, location: string): Partial<StepDraft> {
    if (!Array.isArray(variables) || variables.length === 0) return {};
    const list = variables.filter(isRecord);
    if (list.length > 1) {
      this.warn(
        location,
        `The entry extracts ${list.length} variables; a step extracts one, so only ${asString(list[0]?.name) ? `"${asString(list[0]?.name)}"` : 'the first'} is kept`,
      );
    }
    const [first] = list;
    const name = asString(first?.name);
    const expression = asString(first?.expression);
    if (!first || !name || !expression) return {};
    if (first.type === 0) {
      return {
        extractType: 'json',
        extractName: name,
        extractValue: expression.startsWith('$') ? expression : `$.${expression}`,
      };
    }
    if (first.type === 1) return { extractType: 'regex', extractName: name, extractValue: expression };
    this.warn(
      location,
      `Variable ${name} is extracted with a CSS selector, which the plan cannot do, so it is left out`,
    );
    return {};
  }

  /** har-to-k6 `checks` → the step's one assertion (the first that the plan can express). */
  private assertion(checks: unknown, location: string): Partial<StepDraft> {
    if (!Array.isArray(checks) || checks.length === 0) return {};
    const mapped = checks.filter(isRecord).map((check) => harCheck(check));
    const index = mapped.findIndex((m) => m !== undefined);
    const kept = index === -1 ? undefined : mapped[index];
    const dropped = checks.length - (kept ? 1 : 0);
    if (dropped > 0) {
      this.warn(
        location,
        `${dropped} of the entry's ${checks.length} checks ${dropped === 1 ? 'is' : 'are'} left out: a step has one assertion, and the plan cannot express every kind of check`,
      );
    }
    return kept ?? {};
  }

  private sleep(raw: unknown): { before: number; after: number } {
    const out = { before: 0, after: 0 };
    for (const item of Array.isArray(raw) ? raw : []) {
      if (!isRecord(item)) continue;
      if (typeof item.before === 'number' && item.before > 0) out.before += Math.round(item.before);
      if (typeof item.after === 'number' && item.after > 0) out.after += Math.round(item.after);
    }
    return out;
  }

  private warn(location: string, message: string): void {
    this.warnings.push({ location, message });
  }
}

const CONDITIONS: Record<number, 'contains' | 'equals' | undefined> = { 0: 'contains', 2: 'equals' };

function harCheck(check: Record<string, unknown>): Partial<StepDraft> | undefined {
  const condition = typeof check.condition === 'number' ? CONDITIONS[check.condition] : undefined;
  const value = asString(check.value) ?? '';
  const expression = asString(check.expression) ?? '';
  switch (check.type) {
    case 0:
      if (!condition) return undefined;
      if (check.subject === 0)
        return { assertionType: 'text', assertionOperator: condition, assertionValue: value };
      if (check.subject === 2)
        return { assertionType: 'status', assertionOperator: condition, assertionValue: value };
      return undefined;
    case 1:
      if (!condition || expression === '') return undefined;
      return {
        assertionType: 'json',
        assertionPath: expression.startsWith('$') ? expression : `$.${expression}`,
        assertionOperator: condition,
        assertionValue: value,
      };
    case 3:
      if (check.subject !== 0 || expression === '') return undefined;
      return { assertionType: 'text', assertionOperator: 'regex', assertionValue: expression };
    default:
      return undefined;
  }
}

function entryName(entry: Record<string, unknown>, method: string, url: string): string {
  const comment = asString(entry.comment)?.trim();
  if (comment && comment.length <= 80 && !comment.includes('\n')) return comment;
  return `${method} ${urlPath(url)}`;
}

function msOf(thinkTime: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/i.exec(thinkTime.trim());
  if (!match) return 0;
  const amount = Number(match[1]);
  return (match[2] ?? 's').toLowerCase() === 'ms' ? amount : amount * 1000;
}
