import {
  BODY_METHODS,
  type EffectiveAuthorization,
  type HttpMethod,
  type JsonExpectation,
  type PerfPlan,
  type TextBoundaries,
  type Tool,
  type UrlEntry,
  effectiveAuthorization,
  hasAssertion,
  hasExtraction,
  inferContentType,
  missingAuthorizationFields,
  parseThinkTimeMs,
  planFlows,
  readJsonExpectation,
  readTestData,
  shuffledRows,
  type DataShare,
  type LoadProfile,
  textExtractionBoundaries,
  tokenizeTemplate,
  transactionRatePercent,
} from '@aqa/plan';
import { type JsonPathSegment, JsonPathError, normalizeJsonPath, parseJsonPath } from './json-path';
import { base64Utf8 } from './serializers/base64';
import { csvField } from '../import/csv-to-plan';

/**
 * The small intermediate form every generator writes from (plan → model → text): the plan's steps with
 * docs/design.md §4 already applied — blank pairs dropped, authorization resolved into headers or query, the
 * content type inferred, templates split into parts, think time in ms — so a generator only decides how
 * its tool says each thing, never what the plan means.
 */

export interface ScriptWarning {
  /** The plan field, e.g. "urls[2].extractType". */
  field: string;
  message: string;
}

export interface GeneratedFile {
  name: string;
  content: string;
}

export interface GeneratedScript {
  files: GeneratedFile[];
  warnings: ScriptWarning[];
  /**
   * What the tool, at the version the script was written for, cannot run at all, by plan field: the
   * script would not load or would not do what the plan says, so a run in that tool is refused with
   * these reasons (docs/adr/0004-built-in-engine-and-external-tools.md "Versions"). Absent or empty: it runs.
   */
  unsupported?: ScriptWarning[];
}

/**
 * What a tool whose script does not write a plan's flows yet says of them (docs/adr/0027-load-profiles.md
 * "Flows": Taurus and SoapUI): a warning on `flows`, which its generator also lists as unsupported, so
 * a run in that tool is refused rather than run every call in each iteration. None without flows.
 */
export function flowsNotWritten(source: Pick<ScriptSource, 'flows'>, tool: string): ScriptWarning[] {
  if (source.flows === undefined) return [];
  return [
    {
      field: 'flows',
      message: `${tool} scripts do not carry flows yet: this script runs every call in each iteration, not one flow chosen by the weights (the built-in engine, JMeter, k6 and Locust run the flows)`,
    },
  ];
}

/** What every generator takes besides the plan. */
export interface GeneratorOptions {
  /** The load over time instead of the plan's users and duration (docs/adr/0027-load-profiles.md "7. Where a profile goes"). */
  profile?: LoadProfile | undefined;
  /**
   * false: only the script is wanted (a preview, a save), so the test data's files beside it — up to
   * 10 MB of rows — are not built; their warnings still name them. Default true.
   */
  dataFiles?: boolean | undefined;
}

/** What a script is generated from: a saved plan or a generate-script request (name optional). */
export type ScriptSource = Pick<PerfPlan, 'concurrent_users' | 'duration' | 'urls'> & {
  name?: string | undefined;
  tool?: Tool | undefined;
  /** The plan's load profile: the script follows it unless ScriptOptions.profile says another. */
  load_profile?: PerfPlan['load_profile'];
  /** The plan's test data (docs/adr/0027-load-profiles.md "Test data"): written beside the script. */
  data_files?: PerfPlan['data_files'];
  data_sources?: PerfPlan['data_sources'];
  /** The plan's flows (docs/adr/0027-load-profiles.md "Flows"); each step names its own. */
  flows?: PerfPlan['flows'];
};

/**
 * A data source as the scripts read it (docs/adr/0027-load-profiles.md "Test data"): its rows written to `file`
 * beside the script, without a header, comma-separated with RFC 4180 quotes (`csvText`), in the order
 * of the plan's data (shuffled once with a fixed seed for `random_order`); each column is a variable
 * of every iteration.
 */
export interface DataModel {
  /** The plan's name for the file. */
  path: string;
  /** The file the script reads, beside it: a safe name of its own. */
  file: string;
  columns: { name: string; ident: string }[];
  rowCount: number;
  /**
   * The rows in the script's order (a `random_order` source shuffled once with SCRIPT_DATA_SEED), made
   * when asked: only the data files beside a script need them (GeneratorOptions.dataFiles).
   */
  rows: () => string[][];
  loop: boolean;
  share: DataShare;
}

/** The seed of `random_order` in a script: a script's order is fixed when it is written. */
export const SCRIPT_DATA_SEED = 1;

/** One flow of the plan: its weight and its steps in plan order. */
export interface FlowModel {
  name: string;
  weight: number;
  steps: StepModel[];
}

/** A piece of a value: literal text, a VU variable, or this iteration's sequence number. */
export type ValuePart =
  | { kind: 'text'; text: string }
  | { kind: 'var'; name: string; ident: string; raw: string }
  | { kind: 'seq'; max: number; ident: string };
export type Value = ValuePart[];

export interface NamedValue {
  name: string;
  value: Value;
}

export type AssertionModel = {
  operator: UrlEntry['assertionOperator'];
  expected: string;
  /** Human words for labels and failure messages, e.g. "json $.id equals 42" (long values cut). */
  description: string;
} & (
  | { type: 'status' | 'text' }
  | {
      type: 'json';
      path: string;
      segments: JsonPathSegment[] | undefined;
      /**
       * The JSON literal an equals / not_equals compares with ("ada", 10, true, null: docs/design.md §4
       * "JSON literals"); undefined when the expected value is bare text or the operator reads text.
       */
      literal: Exclude<JsonExpectation, { kind: 'text' }> | undefined;
    }
  | { type: 'xml'; path: string }
);

export type ExtractionModel = { name: string; ident: string } & (
  | { type: 'json'; path: string; segments: JsonPathSegment[] | undefined }
  | { type: 'regex'; pattern: string }
  | { type: 'text'; boundaries: TextBoundaries }
  | { type: 'xml'; path: string }
);

export interface StepModel {
  /** Position in plan.urls. */
  index: number;
  /** "urls[2]", the prefix of every warning about this step. */
  field: string;
  /** Sampler / request name: "3. Login" or "3. POST https://…". */
  label: string;
  method: HttpMethod;
  url: Value;
  query: NamedValue[];
  headers: NamedValue[];
  /** Basic credentials that hold templates, so the header can only be computed at run time. */
  basicAuth: { username: Value; password: Value } | undefined;
  /** Index into ScriptModel.oauthClients: "Authorization: Bearer <token fetched before use>". */
  oauthClient: number | undefined;
  body: Value | undefined;
  assertion: AssertionModel | undefined;
  extraction: ExtractionModel | undefined;
  thinkTimeMs: number;
  /** Percent chance that the step runs in an iteration; 100 = always. */
  ratePercent: number;
  timeoutMs: number;
}

export interface OAuthClientModel {
  ident: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  scope: string;
}

export interface ScriptModel {
  name: string;
  users: number;
  durationS: number;
  steps: StepModel[];
  /** Distinct N of {{sequence_number,N}}, with the tool variable that holds this iteration's value. */
  sequences: { max: number; ident: string }[];
  /** Variables that some step extracts, with a name safe in every tool. */
  variables: { name: string; ident: string }[];
  /** The plan's data sources; each iteration takes the next row of each. */
  data: DataModel[];
  oauthClients: OAuthClientModel[];
  /** The plan's flows; empty for a plan without flows, whose every iteration runs every step. */
  flows: FlowModel[];
  warnings: ScriptWarning[];
}

export function buildScriptModel(source: ScriptSource): ScriptModel {
  const warnings: ScriptWarning[] = [];
  const tables = readTestData(source);
  const dataNames = tables.flatMap((table) => table.names);
  const variables = collectVariables(source.urls, dataNames);
  const sequences = new Map<number, string>();
  const oauthClients: OAuthClientModel[] = [];

  const steps = source.urls.map((entry, index): StepModel => {
    const field = `urls[${index}]`;
    // A data column is set at the start of every iteration, before any step.
    const extractedBefore = new Set([
      ...dataNames,
      ...source.urls
        .slice(0, index)
        .filter(hasExtraction)
        .map((e) => e.extractName.trim()),
    ]);
    const value = (text: string, at: string): Value =>
      toValue(text, `${field}.${at}`, variables, extractedBefore, sequences, warnings);

    const headers: NamedValue[] = entry.headers
      .filter((h) => h.name.trim() !== '' && h.value.trim() !== '')
      .map((h) => ({ name: h.name.trim(), value: value(h.value, 'headers') }));
    const query: NamedValue[] = entry.parameters
      .filter((p) => p.key.trim() !== '' && p.value.trim() !== '')
      .map((p) => ({ name: p.key.trim(), value: value(p.value, 'parameters') }));

    const auth = effectiveAuthorization(entry.authorization);
    const missing = missingAuthorizationFields(entry.authorization);
    if (missing.length > 0) {
      warnings.push({
        field: `${field}.authorization`,
        message: `${entry.authorization.type} authorization is left out: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} blank`,
      });
    }
    let basicAuth: StepModel['basicAuth'];
    let oauthClient: number | undefined;
    if (auth) {
      const applied = applyAuthorization(auth, value, oauthClients);
      if (applied.header) {
        const replaced = headers.findIndex(
          (h) => h.name.toLowerCase() === applied.header?.name.toLowerCase(),
        );
        if (replaced !== -1) {
          headers.splice(replaced, 1);
          warnings.push({
            field: `${field}.headers`,
            message: `The ${applied.header.name} header is replaced by the ${auth.type} authorization`,
          });
        }
        headers.push(applied.header);
      }
      if (applied.query) query.push(applied.query);
      basicAuth = applied.basicAuth;
      oauthClient = applied.oauthClient;
    }

    const sendsBody = BODY_METHODS.includes(entry.method) && entry.payload !== '';
    if (sendsBody && !headers.some((h) => h.name.toLowerCase() === 'content-type')) {
      const contentType = inferContentType(entry.payload);
      if (contentType) headers.push({ name: 'Content-Type', value: [{ kind: 'text', text: contentType }] });
    }

    return {
      index,
      field,
      label: stepLabel(entry, index),
      method: entry.method,
      url: value(entry.url, 'url'),
      query,
      headers,
      basicAuth,
      oauthClient,
      body: sendsBody ? value(entry.payload, 'payload') : undefined,
      assertion: assertionModel(entry, field, warnings),
      extraction: extractionModel(entry, field, variables, warnings),
      thinkTimeMs: thinkTimeMs(entry.thinkTime, field, warnings),
      ratePercent: transactionRatePercent(entry.transactionRate),
      timeoutMs: Math.round(entry.timeout * 1000),
    };
  });

  return {
    name: source.name?.trim() || 'current',
    users: source.concurrent_users,
    durationS: source.duration * 60,
    steps,
    sequences: [...sequences].map(([max, ident]) => ({ max, ident })).sort((a, b) => a.max - b.max),
    variables: [...variables].map(([name, ident]) => ({ name, ident })),
    data: tables.map((table, k) => ({
      path: table.path,
      file: dataFileName(k, table.path),
      columns: table.names.map((name) => ({ name, ident: variables.get(name)! })),
      rowCount: table.rows.length,
      rows: () => (table.random_order ? shuffledRows(table.rows, SCRIPT_DATA_SEED) : table.rows),
      loop: table.loop,
      share: table.share,
    })),
    oauthClients,
    flows:
      source.flows === undefined
        ? []
        : planFlows({ flows: source.flows, urls: source.urls }).map((f) => ({
            name: f.name,
            weight: f.weight,
            steps: f.urls.map((i) => steps[i]!),
          })),
    warnings,
  };
}

/** The name of a data source's file beside the script: numbered, with only characters every file system takes. */
function dataFileName(k: number, path: string): string {
  const base = path
    .replace(/^.*[/\\]/, '')
    .replace(/\.csv$/i, '')
    .replace(/[^A-Za-z0-9_-]/g, '_');
  return `aqa_data_${k + 1}_${base.slice(0, 60)}.csv`;
}

/** A data file's rows as the scripts read them: no header, commas, RFC 4180 quotes where a field needs them. */
function csvText(rows: readonly string[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

/** The files beside a script that hold its data sources' rows. */
export function dataFiles(
  data: readonly DataModel[],
  options: Pick<GeneratorOptions, 'dataFiles'> = {},
): GeneratedFile[] {
  if (options.dataFiles === false) return [];
  return data.map((d) => ({ name: d.file, content: csvText(d.rows()) }));
}

/** What every script with test data says: where it reads the rows from. */
export function dataFileWarnings(
  data: readonly DataModel[],
  fileOf: (d: DataModel) => string = (d) => d.file,
): ScriptWarning[] {
  return data.map((d, k) => ({
    field: `data_sources[${k}]`,
    message: `The script reads the rows of ${JSON.stringify(d.path)} from ${fileOf(d)} beside it (no header line); a downloaded script needs that file put beside it`,
  }));
}

/**
 * Names that the data sources give and steps extract, each with an identifier that JMeter, Taurus and
 * SoapUI accept.
 */
function collectVariables(urls: readonly UrlEntry[], dataNames: readonly string[]): Map<string, string> {
  const idents = new Map<string, string>();
  const taken = new Set<string>();
  const names = [...dataNames, ...urls.filter(hasExtraction).map((entry) => entry.extractName.trim())];
  for (const name of names) {
    if (idents.has(name)) continue;
    // aqa_ names are the generators' own (sequences, tokens, assertion values), so users never collide.
    let ident = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (ident.startsWith('aqa_')) ident = `v_${ident}`;
    let candidate = ident;
    for (let n = 2; taken.has(candidate); n++) candidate = `${ident}_${n}`;
    taken.add(candidate);
    idents.set(name, candidate);
  }
  return idents;
}

function toValue(
  text: string,
  field: string,
  variables: ReadonlyMap<string, string>,
  extractedBefore: ReadonlySet<string>,
  sequences: Map<number, string>,
  warnings: ScriptWarning[],
): Value {
  const value: Value = [];
  const pushText = (t: string) => {
    const last = value[value.length - 1];
    if (last?.kind === 'text') last.text += t;
    else value.push({ kind: 'text', text: t });
  };
  for (const part of tokenizeTemplate(text)) {
    if (part.kind === 'literal') pushText(part.text);
    else if (part.kind === 'sequence') {
      const ident = `aqa_seq_${part.max}`;
      sequences.set(part.max, ident);
      value.push({ kind: 'seq', max: part.max, ident });
    } else {
      const ident = variables.get(part.name);
      if (ident === undefined) {
        warnings.push({
          field,
          message: `${part.raw} is not extracted by any step, so it is sent as written`,
        });
        pushText(part.raw);
      } else {
        if (!extractedBefore.has(part.name)) {
          warnings.push({
            field,
            message: `${part.raw} is extracted only by this or a later step: the first iteration sends it as written`,
          });
        }
        value.push({ kind: 'var', name: part.name, ident, raw: part.raw });
      }
    }
  }
  return value;
}

function applyAuthorization(
  auth: EffectiveAuthorization,
  value: (text: string, at: string) => Value,
  oauthClients: OAuthClientModel[],
): { header?: NamedValue; query?: NamedValue; basicAuth?: StepModel['basicAuth']; oauthClient?: number } {
  switch (auth.type) {
    case 'bearer':
      return {
        header: {
          name: 'Authorization',
          value: [{ kind: 'text', text: 'Bearer ' }, ...value(auth.token, 'authorization.token')],
        },
      };
    case 'basic': {
      const username = value(auth.username, 'authorization.username');
      const password = value(auth.password, 'authorization.password');
      if (isLiteral(username) && isLiteral(password)) {
        const encoded = base64Utf8(`${auth.username}:${auth.password}`);
        return { header: { name: 'Authorization', value: [{ kind: 'text', text: `Basic ${encoded}` }] } };
      }
      return { basicAuth: { username, password } };
    }
    case 'api_key': {
      const pair = { name: auth.keyName, value: value(auth.keyValue, 'authorization.keyValue') };
      return auth.in === 'query' ? { query: pair } : { header: pair };
    }
    case 'oauth2': {
      let index = oauthClients.findIndex(
        (c) =>
          c.tokenUrl === auth.tokenUrl &&
          c.clientId === auth.clientId &&
          c.clientSecret === auth.clientSecret &&
          c.scope === auth.scope,
      );
      if (index === -1) {
        index = oauthClients.length;
        oauthClients.push({
          ident: `aqa_oauth_${index}`,
          clientId: auth.clientId,
          clientSecret: auth.clientSecret,
          tokenUrl: auth.tokenUrl,
          scope: auth.scope,
        });
      }
      return { oauthClient: index };
    }
  }
}

export function isLiteral(value: Value): boolean {
  return value.every((part) => part.kind === 'text');
}

/** The value with templates as written: for labels, comments and tools that cannot expand them. */
export function valueAsWritten(value: Value): string {
  return value
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'var' ? p.raw : `{{sequence_number,${p.max}}}`))
    .join('');
}

function stepLabel(entry: UrlEntry, index: number): string {
  const name = entry.name?.trim();
  if (name) return `${index + 1}. ${name}`;
  const url = entry.url.length > 80 ? `${entry.url.slice(0, 77)}...` : entry.url;
  return `${index + 1}. ${entry.method} ${url}`;
}

function thinkTimeMs(text: string, field: string, warnings: ScriptWarning[]): number {
  try {
    return parseThinkTimeMs(text);
  } catch (error) {
    warnings.push({ field: `${field}.thinkTime`, message: `${(error as Error).message}; no pause is made` });
    return 0;
  }
}

function jsonPathModel(expression: string): {
  path: string;
  segments: JsonPathSegment[] | undefined;
  problem: string | undefined;
} {
  const path = normalizeJsonPath(expression);
  try {
    return { path, segments: parseJsonPath(path), problem: undefined };
  } catch (error) {
    if (error instanceof JsonPathError) return { path, segments: undefined, problem: error.message };
    throw error;
  }
}

function assertionModel(
  entry: UrlEntry,
  field: string,
  warnings: ScriptWarning[],
): AssertionModel | undefined {
  if (!hasAssertion(entry)) {
    if (entry.assertionValue.trim() !== '') {
      warnings.push({
        field: `${field}.assertionPath`,
        message: `The ${entry.assertionType} assertion has no path, so it is left out`,
      });
    }
    return undefined;
  }
  const expected = entry.assertionType === 'status' ? entry.assertionValue.trim() : entry.assertionValue;
  const words = `${entry.assertionOperator.replace('_', ' ')} ${expected.length > 60 ? `${expected.slice(0, 57)}...` : expected}`;
  const base = { operator: entry.assertionOperator, expected };
  switch (entry.assertionType) {
    case 'status':
    case 'text':
      return {
        ...base,
        type: entry.assertionType,
        description: `${entry.assertionType === 'status' ? 'status' : 'body'} ${words}`,
      };
    case 'json': {
      const { path, segments } = jsonPathModel(entry.assertionPath);
      const expectation =
        entry.assertionOperator === 'equals' || entry.assertionOperator === 'not_equals'
          ? readJsonExpectation(expected)
          : undefined;
      const literal = expectation?.kind === 'text' ? undefined : expectation;
      return { ...base, type: 'json', path, segments, literal, description: `json ${path} ${words}` };
    }
    case 'xml': {
      const path = entry.assertionPath.trim();
      return { ...base, type: 'xml', path, description: `xml ${path} ${words}` };
    }
  }
}

function extractionModel(
  entry: UrlEntry,
  field: string,
  variables: ReadonlyMap<string, string>,
  warnings: ScriptWarning[],
): ExtractionModel | undefined {
  if (!hasExtraction(entry)) {
    if (entry.extractName.trim() !== '') {
      warnings.push({
        field: `${field}.extractValue`,
        message: `The ${entry.extractType} extraction of ${entry.extractName.trim()} has no ${entry.extractType === 'regex' ? 'pattern' : 'path'}, so it is left out`,
      });
    }
    return undefined;
  }
  const name = entry.extractName.trim();
  const ident = variables.get(name) ?? name;
  switch (entry.extractType) {
    case 'json': {
      const { path, segments } = jsonPathModel(entry.extractValue);
      return { name, ident, type: 'json', path, segments };
    }
    case 'regex':
      return { name, ident, type: 'regex', pattern: entry.extractValue };
    case 'text':
      return { name, ident, type: 'text', boundaries: textExtractionBoundaries(entry.extractValue) };
    case 'xml':
      return { name, ident, type: 'xml', path: entry.extractValue.trim() };
  }
}

/** The problem a generator reports when it must evaluate a JSONPath itself and cannot. */
export function jsonPathProblem(path: string): string | undefined {
  return jsonPathModel(path).problem;
}

/** Warnings in plan order, without repeats. */
export function uniqueWarnings(warnings: readonly ScriptWarning[]): ScriptWarning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.field}\u0000${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
