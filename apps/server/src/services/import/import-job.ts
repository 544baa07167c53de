import {
  importFile,
  ImportError,
  type ImportedSettings,
  type ImportInfo,
  type ImportResult,
  type ImportSource,
  type ImportWarning,
  type NeededValue,
  planToTaurus,
  type PostmanTestCounts,
  postmanToFunctionalPlan,
  readRecording,
  readTaurusScript,
  RECORDING_FILE,
  RECORDING_NAMES,
  type RecordingFormat,
  type RecordingRead,
  responseValidations,
  type StepSource,
} from '@aqa/converters';
import {
  type Authorization,
  type FunctionalPlan,
  FunctionalPlanSchema,
  type FunctionalValidation,
  FunctionalValidationSchema,
  hasAssertion,
  type HttpMethod,
  UI_LIMITS,
  type UrlEntry,
} from '@aqa/plan';

/**
 * One import, as the worker thread runs it: the file through the converters' importFile, then the answer
 * the calls send (docs/reference/01-authoring.md §3 "Parsed API from an upload"; docs/reference/02-running.md §7 "File parse"). Everything here is
 * plain data, so it crosses between threads by structured clone.
 */

/**
 * One uploaded file: its bytes (a pasted cURL command), or, for a file part of an upload, the temporary
 * file it was streamed to (docs/adr/0024-memory-bounds.md), which the worker thread reads (readFiles).
 */
export type UploadedFile = { name: string; bytes: Uint8Array } | StoredUpload;

/** A file part written to disk as it arrived: never held whole on the server's event loop. */
export interface StoredUpload {
  name: string;
  path: string;
  /** Its size in bytes. */
  size: number;
}

/** A file as the importers read it: its bytes in memory. */
export interface ReadFile {
  name: string;
  bytes: Uint8Array;
}

/** The job with every stored upload read into memory: what runImportJob takes (in the worker thread). */
export type ReadJob = Omit<ImportJob, 'file' | 'files' | 'environment' | 'data'> & {
  file: ReadFile;
  files?: ReadFile[] | undefined;
  environment?: ReadFile | undefined;
  data?: ReadFile | undefined;
};

export interface ImportJob {
  file: UploadedFile;
  /** swagger | postman | har | curl | csv | excel (also openapi, xlsx); detected when absent. */
  format?: string | undefined;
  baseUrl?: string | undefined;
  /** The other files of a multi-file OpenAPI spec, by file name. */
  files?: UploadedFile[] | undefined;
  /** A Postman environment or globals file. */
  environment?: UploadedFile | undefined;
  /** A Postman collection's data file (CSV or JSON), as newman -d reads it. */
  data?: UploadedFile | undefined;
  /**
   * Also answer a Postman collection as a functional plan ready to save, with how its tests were
   * carried (docs/adr/0029-postman-collections.md); the plan's test_type.
   */
  postmanPlan?: { testType: 'api' | 'functional' } | undefined;
  /** Also write the Taurus script of the functional screen (docs/reference/02-running.md §7). */
  taurusScript?: { name: string } | undefined;
  /**
   * Answer with the parse calls' answer as JSON bytes, ready to send (see JsonAnswer), rather than as
   * objects: a large answer is then written out in the worker, not on the server's event loop.
   */
  asJson?: boolean | undefined;
}

/**
 * The parse calls' answer written out by the worker: the bytes to send, and what the server checks before
 * sending them. Receiving, checking and writing out 14,000 APIs as objects held the event loop for 0.4 s;
 * moved bytes cost it nothing (docs/adr/0017-import-queue-and-workers.md).
 */
export interface JsonAnswer {
  json: Uint8Array;
  steps: number;
  requests: number;
  /** Why nothing could be imported, when nothing could (see emptyReason). */
  reason: string | undefined;
}

/** The answer of parse-swagger, parse-postman, parse-har and parse-curl as sent (import.schemas.ts ParseResponseSchema). */
export function parseReply({ apis, steps, warnings, info, needsValue, settings }: ImportAnswer) {
  return { apis, steps, warnings, info, needs_value: needsValue, ...(settings ? { settings } : {}) };
}

/** The warning that says why requests were left out, rather than one about a script or a server. */
export function emptyReason(warnings: readonly ImportWarning[]): string | undefined {
  return (warnings.find((w) => /left out|not imported|no paths|no operations/.test(w.message)) ?? warnings[0])
    ?.message;
}

/** The job's answer as JSON bytes, with what the server checks before sending it. */
export function runImportJobAsJson(job: ReadJob): JsonAnswer {
  const answer = runImportJob(job);
  return {
    json: new TextEncoder().encode(JSON.stringify(parseReply(answer))),
    steps: answer.steps.length,
    requests: answer.info.requests,
    reason: emptyReason(answer.warnings),
  };
}

/** An API as the performance upload screen lists it (docs/reference/01-authoring.md §3 "Parsed API from an upload"). */
export interface ParsedApi {
  name: string;
  method: HttpMethod;
  /** The path as the document writes it ("/pets/{petId}"). */
  path: string;
  url: string;
  parameters: { key: string; value: string }[];
  headers: { name: string; value: string }[];
  authorization: Authorization;
  /** The request body as text ("" without one). */
  body: string;
  requestBody: { contentType: string; required: boolean } | null;
  /** An OpenAPI operation's tags or a Postman request's folders; [] without (StepSource.tags). */
  tags: string[];
  /** An OpenAPI operation's operationId; "" without. */
  operationId: string;
}

/** An API as the functional script screen lists it (docs/reference/02-running.md §7): headers and query as name → value. */
export interface FunctionalApi {
  name: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
  params: Record<string, string>;
  /** From an OpenAPI document: its success status and response schema (responseValidations); else none. */
  validations: FunctionalValidation[];
}

export interface ImportAnswer {
  apis: ParsedApi[];
  steps: UrlEntry[];
  warnings: ImportWarning[];
  info: Omit<ImportInfo, 'format'> & { format: ImportInfo['format'] | RecordingFormat };
  /** A browser recording read as a UI plan (docs/adr/0030-recorded-ui-tests.md §3); nothing else is answered. */
  recording?: { format: RecordingFormat; plan: FunctionalPlan; counts: RecordingRead['counts'] };
  /** The {{variables}} the calls send without a value (the summary's "needs a value"). */
  needsValue: NeededValue[];
  /** A Taurus configuration's load profile and data sources (docs/adr/0027-load-profiles.md "Importers"). */
  settings?: ImportedSettings | undefined;
  /** A Postman collection as a functional plan, when the job asked for one (postmanPlan). */
  postman?: { plan: FunctionalPlan; counts: PostmanTestCounts };
  functional?: {
    script: string;
    apis: FunctionalApi[];
    /** What the Taurus script cannot express, by plan field. */
    scriptWarnings: { field: string; message: string }[];
  };
}

export function runImportJob(job: ReadJob): ImportAnswer {
  // The functional file parse reads a browser recording as a UI plan (docs/adr/0030-recorded-ui-tests.md §3).
  if (job.taurusScript !== undefined) {
    const recording = readRecording(job.file, { format: job.format, baseUrl: job.baseUrl });
    if (recording !== undefined) return recordingAnswer(recording, job.file);
  }
  // The file itself, not a copy of its fields: a multi-file spec's other files are read when asked for.
  const source = (file: ReadFile): ImportSource => file;
  const result = importFile({
    name: job.file.name,
    bytes: job.file.bytes,
    format: job.format,
    baseUrl: job.baseUrl,
    files:
      job.files && Object.fromEntries(job.files.map((f) => [relativeTo(job.file.name, f.name), source(f)])),
    environment: job.environment && source(job.environment),
    // A functional plan runs the collection's scripts; a load plan is told they are left out.
    postmanScriptsRun: job.postmanPlan !== undefined,
    // A functional test checks bodies against the document's schemas; a load test does not need them.
    responseSchemas: job.taurusScript !== undefined,
  });
  if (job.taurusScript && result.info.format === 'taurus') {
    // A functional test runs a Taurus script as it is (docs/reference/02-running.md §3 "Taurus scripts").
    throw new ImportError(
      job.file.name,
      'this is a Taurus configuration, which is not an import format here; paste it into the Taurus script editor of a functional test instead',
    );
  }
  const answer: ImportAnswer = {
    apis: parsedApis(result),
    steps: result.steps,
    warnings: result.warnings,
    info: result.info,
    needsValue: result.needsValue,
    settings: result.settings,
  };
  if (job.postmanPlan && result.info.format === 'postman') {
    const read = postmanToFunctionalPlan(job.file, {
      environment: job.environment,
      data: job.data,
      testType: job.postmanPlan.testType,
    });
    // The plan as save-config reads it (defaults filled); one the model refuses is answered without it.
    const plan = FunctionalPlanSchema.safeParse(read.plan);
    if (plan.success) answer.postman = { plan: plan.data, counts: read.postman };
    else
      answer.warnings.push({
        location: 'plan',
        message: `No plan is answered: ${plan.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      });
  } else if (job.data !== undefined) {
    throw new ImportError(job.data.name, 'a data file goes with a Postman collection only');
  }
  if (job.taurusScript && result.steps.length > 0) {
    const apis = result.steps.map((step, i) => functionalApi(step, result.sources[i], result.warnings));
    const script = planToTaurus({
      name: job.taurusScript.name,
      // The functional screen's example scripts: one user for one minute (docs/reference/02-running.md §9).
      concurrent_users: 1,
      duration: 1,
      urls: result.steps.map((step, i) => withDocumentedStatus(step, apis[i]!.validations)),
    });
    const content = script.files[0]?.content ?? '';
    answer.functional = {
      script: content,
      apis: withScriptRules(apis, content),
      scriptWarnings: script.warnings,
    };
  }
  return answer;
}

/** A size as the refusal says it: "5,121 KB", rounded up, so a file just over the bound does not read as at it. */
const kb = (bytes: number): string => `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB`;

/**
 * A recording's answer: its plan and counts, facts about the file, no API list and no script. A
 * recording over its bounds (UI_LIMITS: its size, its commands in all) is refused, saying by how much
 * (docs/recorded-ui-tests.md "Bounds").
 */
function recordingAnswer(recording: RecordingRead, upload: ReadFile): ImportAnswer {
  const file = upload.name;
  const kind = `${RECORDING_NAMES[recording.format]} ${RECORDING_FILE[recording.format]}`;
  if (upload.bytes.length > UI_LIMITS.recordingBytes) {
    throw new ImportError(
      file,
      `this ${kind} is ${kb(upload.bytes.length)}; a recording is at most ${kb(UI_LIMITS.recordingBytes)} (${UI_LIMITS.recordingBytes / 1024 / 1024} MB). Split it into several recordings`,
    );
  }
  if (recording.counts.actions > UI_LIMITS.actionsPerRecording) {
    throw new ImportError(
      file,
      `this ${kind} has ${recording.counts.actions.toLocaleString('en-US')} commands in all its tests; a recording runs at most ${UI_LIMITS.actionsPerRecording.toLocaleString('en-US')}. Split it into several recordings`,
    );
  }
  // The plan as save-config reads it; one the model refuses (a bound) is refused here, naming why.
  const plan = FunctionalPlanSchema.safeParse(recording.plan);
  if (!plan.success) {
    throw new ImportError(file, plan.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  return {
    apis: [],
    steps: [],
    warnings: recording.warnings,
    info: {
      format: recording.format,
      kind: `${RECORDING_NAMES[recording.format]} ${RECORDING_FILE[recording.format]}`,
      title: recording.plan.test_name ?? file,
      servers: [],
      requests: recording.counts.tests,
      methods: {},
    },
    needsValue: [],
    recording: { format: recording.format, plan: plan.data, counts: recording.counts },
  };
}

/**
 * The step as the script writes it: a step that asserts nothing else asserts the status the OpenAPI
 * document lists, so the script and the API list judge the call alike (docs/reference/02-running.md §7
 * "Script calls"). A JSON Schema rule has no Taurus form; the API list alone carries it.
 */
function withDocumentedStatus(step: UrlEntry, validations: FunctionalValidation[]): UrlEntry {
  const status = validations.find((v) => v.type === 'status_code');
  if (status === undefined || hasAssertion(step)) return step;
  return {
    ...step,
    assertionType: 'status',
    assertionOperator: 'equals',
    assertionValue: status.expected_value,
  };
}

/**
 * The APIs with the rules their script gives them (the steps' assertions, as the Taurus reader reads
 * them back), before the document's own, so the API list and the script read back name the same rules.
 */
function withScriptRules(apis: FunctionalApi[], script: string): FunctionalApi[] {
  let read;
  try {
    read = readTaurusScript(script);
  } catch {
    return apis;
  }
  if (read.apis.length !== apis.length) return apis;
  return apis.map((api, i) => {
    const scriptRules = (read.apis[i]?.validations ?? []).flatMap((input) => {
      const rule = FunctionalValidationSchema.safeParse(input);
      return rule.success ? [rule.data] : [];
    });
    const same = (a: FunctionalValidation, b: FunctionalValidation) =>
      a.type === b.type && a.expected_value === b.expected_value;
    const documented = api.validations.filter((v) => !scriptRules.some((r) => same(r, v)));
    const named = scriptRules.map((r) => api.validations.find((v) => same(r, v)) ?? r);
    return { ...api, validations: [...named, ...documented] };
  });
}

/**
 * The path of another uploaded file as seen from the root file's folder: a folder upload names files
 * "spec/index.yaml" and "spec/paths/a.yaml", and the root's references say "paths/a.yaml".
 */
function relativeTo(root: string, other: string): string {
  const slash = root.replace(/\\/g, '/').lastIndexOf('/');
  const folder = slash === -1 ? '' : root.replace(/\\/g, '/').slice(0, slash + 1);
  const name = other.replace(/\\/g, '/');
  return folder !== '' && name.startsWith(folder) ? name.slice(folder.length) : name;
}

function parsedApis(result: ImportResult): ParsedApi[] {
  return result.steps.map((step, i) => {
    const source = result.sources[i];
    return {
      name: step.name ?? `${step.method} ${source?.path ?? ''}`,
      method: step.method,
      path: source?.path ?? '',
      url: step.url,
      parameters: step.parameters,
      headers: step.headers,
      authorization: step.authorization,
      body: step.payload,
      requestBody: source?.requestBody ?? null,
      tags: source?.tags ?? [],
      operationId: source?.operationId ?? '',
    };
  });
}

/**
 * Headers and parameters with the authorization written into them, as a functional test sends them, and
 * the rules the OpenAPI document gives the call (docs/design.md §9).
 */
function functionalApi(
  step: UrlEntry,
  source: StepSource | undefined,
  warnings: ImportWarning[],
): FunctionalApi {
  const headers: Record<string, string> = {};
  const params: Record<string, string> = {};
  for (const header of step.headers) if (header.name !== '') headers[header.name] = header.value;
  const named = step.parameters.filter((p) => p.key !== '');
  // A name sent more than once (?tag=a&tag=b) does not fit the name → value map: the query goes in the URL.
  const repeats = new Set(named.map((p) => p.key)).size < named.length;
  const url = repeats
    ? `${step.url}${step.url.includes('?') ? '&' : '?'}${named.map((p) => `${p.key}=${p.value}`).join('&')}`
    : step.url;
  if (!repeats) for (const param of named) params[param.key] = param.value;
  const auth = step.authorization;
  if (auth.type === 'bearer' && auth.token.trim() !== '')
    headers.Authorization = `Bearer ${auth.token.trim()}`;
  if (auth.type === 'basic' && auth.username !== '') {
    headers.Authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }
  if (auth.type === 'api_key' && auth.keyName.trim() !== '' && auth.keyValue !== '') {
    if (auth.in === 'query') params[auth.keyName.trim()] = auth.keyValue;
    else headers[auth.keyName.trim()] = auth.keyValue;
  }
  return {
    name: step.name ?? step.url,
    url,
    method: step.method,
    headers,
    body: step.payload,
    params,
    validations: responseValidations(source, warnings),
  };
}
