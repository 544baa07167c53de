import {
  type Capture,
  type DataSource,
  DataSourceSchema,
  type FunctionalValidationInput,
  FunctionalValidationSchema,
  perfAssertionRule,
  perfItemRule,
  readDataSource,
  testDataProblems,
  type UrlEntry,
  type UrlEntryInput,
  type ValidationItem,
} from '@aqa/plan';
import {
  countMethods,
  ImportError,
  type ImportResult,
  type ImportWarning,
  makeStep,
  NO_THINK_TIME,
  neededValues,
  type StepDraft,
  type StepSource,
} from '../import-model';
import { readTaurusScript } from './read-taurus';
import { type TaurusApi, type TaurusDataSource, TaurusScriptError, type TaurusWarning } from './taurus-model';

/*
 * A Taurus YAML as a performance plan (docs/adr/0027-load-profiles.md "Importers"): the requests the
 * functional reader reads (read-taurus.ts, docs/reference/02-running.md §3 "Taurus scripts") become the
 * plan's calls, the first execution's load its users, minutes and load profile
 * (taurus-load-profile.ts), and its data-sources the plan's data_sources — with their files when the
 * upload carries them, else named as missing.
 */

/** Where a reader's warning is, as the import screens write a location. */
function locationOf(place: { path: string; line?: number | undefined }): string {
  return place.line === undefined ? place.path : `${place.path} (line ${place.line})`;
}

function importWarning(w: TaurusWarning): ImportWarning {
  return { location: locationOf(w), message: w.message };
}

/** A rule's fields that decide what it checks, read the one way the schema reads them. */
function ruleKey(rule: FunctionalValidationInput): string | undefined {
  const parsed = FunctionalValidationSchema.safeParse(rule);
  if (!parsed.success) return undefined;
  const { type, expected_value, subject, path, negate } = parsed.data;
  return JSON.stringify([type, expected_value ?? '', subject ?? 'body', path ?? '', negate === true]);
}

const OPERATOR_OF = { contains_text: 'contains', regex: 'regex', equals: 'equals' } as const;
const ASSERTION_OF = { body: 'text', status_code: 'status', json: 'json', xml: 'xml' } as const;

/**
 * The entry's own assertion that is judged as `rule` is (the inverse of perfAssertionRule), or
 * undefined when the entry's assertion cannot say it.
 */
type AssertionFields = Pick<
  UrlEntry,
  'assertionType' | 'assertionOperator' | 'assertionPath' | 'assertionValue'
>;
type CheckFields = Partial<AssertionFields> & Pick<UrlEntryInput, 'validations'>;
type ExtractionFields = Partial<Pick<UrlEntry, 'extractType' | 'extractName' | 'extractValue'>>;

function assertionFor(rule: FunctionalValidationInput): AssertionFields | undefined {
  const type = rule.type ?? 'status_code';
  const subject = rule.subject ?? (type === 'status_code' ? 'status_code' : 'body');
  const assertionType = (ASSERTION_OF as Record<string, UrlEntry['assertionType']>)[subject];
  const base = type === 'status_code' ? 'equals' : (OPERATOR_OF as Record<string, string>)[type];
  if (assertionType === undefined || base === undefined) return undefined;
  const operator = rule.negate === true ? (base === 'equals' ? 'not_equals' : undefined) : base;
  if (operator === undefined) return undefined;
  const fields: AssertionFields = {
    assertionType,
    assertionOperator: operator as UrlEntry['assertionOperator'],
    assertionPath: rule.path ?? '',
    assertionValue: rule.expected_value ?? '',
  };
  const back = perfAssertionRule(fields);
  return back !== null && ruleKey(back) === ruleKey(rule) ? fields : undefined;
}

/** A validation item judged as `rule` is (perfItemRule), or undefined. */
function itemFor(rule: FunctionalValidationInput, id: number): ValidationItem | undefined {
  const type = rule.type ?? 'status_code';
  if (rule.negate === true || rule.subject !== undefined) return undefined;
  if (!['status_code', 'response_time', 'response_size', 'contains_text', 'json_path'].includes(type))
    return undefined;
  const item = {
    id: String(id),
    name: rule.name ?? '',
    type: type as ValidationItem['type'],
    expected_value: (rule.expected_value ?? '').trim(),
    description: rule.description ?? '',
  };
  if (item.expected_value === '') return undefined;
  const back = perfItemRule(item);
  return back !== null && ruleKey(back) === ruleKey(rule) ? item : undefined;
}

/** The request's checks as the entry's assertion and validation items; what neither says is named. */
function checkFields(api: TaurusApi, location: string, warnings: ImportWarning[]): CheckFields {
  const validations: ValidationItem[] = [];
  let assertion: AssertionFields | undefined;
  api.validations.forEach((rule, i) => {
    const item = itemFor(rule, validations.length + 1);
    if (item !== undefined) {
      validations.push(item);
      return;
    }
    const own = assertion === undefined ? assertionFor(rule) : undefined;
    if (own !== undefined) {
      assertion = own;
      return;
    }
    warnings.push({
      location,
      message: `The check ${rule.name ? `"${rule.name}"` : `${i + 1} (${rule.type ?? 'status_code'})`} is left out: a performance plan's call has one assertion (equals, not equals, contains or a regex on the status, body, a JSON path or an XPath) beside checks of status, response time, size, text and JSON path`,
    });
  });
  return { ...assertion, validations };
}

/** The request's first capture as the entry's extraction (a call extracts one value). */
function captureFields(api: TaurusApi, location: string, warnings: ImportWarning[]): ExtractionFields {
  const [first, ...rest] = api.captures;
  for (const other of rest) {
    warnings.push({
      location,
      message: `The extraction into \${${other.name}} is left out: a performance plan's call extracts one value (here \${${first?.name ?? ''}})`,
    });
  }
  if (first === undefined) return {};
  if (first.from === 'header') {
    warnings.push({
      location,
      message: `The extraction of header ${first.expression} into \${${first.name}} is left out: a performance plan extracts from the body`,
    });
    return {};
  }
  const differs = captureDifference(first);
  if (differs !== undefined) warnings.push({ location, message: differs });
  return {
    extractType: first.from === 'json_path' ? 'json' : 'regex',
    extractName: first.name,
    extractValue: first.expression,
  };
}

/** What a performance plan's extraction does otherwise than the capture asks, in words. */
function captureDifference(capture: Capture): string | undefined {
  const parts: string[] = [];
  if (capture.default !== undefined && capture.default !== '')
    parts.push(`its default "${capture.default}" is not kept (nothing found leaves the value empty)`);
  if (capture.from === 'regex' && capture.group !== undefined && capture.group > 1)
    parts.push(`group ${capture.group} is read as the first group`);
  if (capture.match_no !== undefined && capture.match_no !== 1)
    parts.push(`match ${capture.match_no} is read as the first match`);
  return parts.length === 0
    ? undefined
    : `The extraction into \${${capture.name}} differs: ${parts.join('; ')}`;
}

function entryOf(
  api: TaurusApi,
  thinkTimeMs: number,
  warnings: ImportWarning[],
): { entry: UrlEntry; source: StepSource } | null {
  const location = locationOf(api.source);
  const draft: StepDraft = {
    name: api.name,
    method: api.method,
    url: api.url,
    headers: Object.entries(api.headers).map(([name, value]) => ({ name, value })),
    parameters: api.params.map((p) => ({ key: p.name, value: p.value })),
    payload: api.body,
    ...(api.timeout === undefined ? {} : { timeout: api.timeout }),
    thinkTime: thinkTimeMs > 0 ? `${thinkTimeMs}ms` : NO_THINK_TIME,
    ...captureFields(api, location, warnings),
    ...checkFields(api, location, warnings),
  };
  const entry = makeStep(draft, location, warnings);
  if (entry === null) return null;
  const path = /^[a-z]+:\/\/[^/?#]*([^?#]*)/i.exec(api.url)?.[1] || '/';
  return { entry, source: { location, path, method: api.method, requestBody: null } };
}

/** A data source as the plan's (docs/adr/0027-load-profiles.md "Test data"). */
function dataSourceOf(
  source: TaurusDataSource,
  files: Readonly<Record<string, string>>,
  warnings: ImportWarning[],
): DataSource {
  const location = locationOf(source.source);
  const text = files[source.path];
  // Taurus reads quotes only with quoted: true; the plan always reads them (RFC 4180).
  if (!source.quoted && text !== undefined && text.includes('"')) {
    warnings.push({
      location,
      message: `${source.path} holds double quotes, which Taurus (quoted: false) reads as text; the plan reads them as CSV quotes`,
    });
  }
  return DataSourceSchema.parse({
    path: source.path,
    ...(source.delimiter === null ? {} : { delimiter: source.delimiter }),
    loop: source.loop,
    ...(source.variable_names === null ? {} : { variable_names: source.variable_names }),
  });
}

/**
 * A Taurus YAML as a performance plan's calls and settings. `files` are the other files of the upload
 * by name (data sources' CSV files, body files). Throws ImportError when nothing in it can be a plan.
 */
export function taurusToPlan(
  text: string,
  file: string,
  files: Readonly<Record<string, string>> = {},
): ImportResult {
  let read;
  try {
    read = readTaurusScript(text, { files, purpose: 'performance' });
  } catch (error) {
    if (!(error instanceof TaurusScriptError)) throw error;
    const problem = `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`;
    throw new ImportError(file, `this is a Taurus configuration, but ${problem}`, {
      line: error.line,
      cause: error,
    });
  }
  const warnings = read.warnings.map(importWarning);
  const load = read.performance;
  if (load === undefined) throw new ImportError(file, 'no execution of this script has requests to import');
  const steps: UrlEntry[] = [];
  const sources: StepSource[] = [];
  for (const api of read.apis) {
    const made = entryOf(api, load.think_time_ms, warnings);
    if (made === null) continue;
    steps.push(made.entry);
    sources.push(made.source);
  }
  const dataSources = read.data_sources.map((d) => dataSourceOf(d, files, warnings));
  const missing = read.data_sources.filter((d) => !Object.hasOwn(files, d.path)).map((d) => d.path);
  const dataFiles = Object.fromEntries(
    read.data_sources.flatMap((d) => (Object.hasOwn(files, d.path) ? [[d.path, files[d.path]!]] : [])),
  );
  // A CSV sent beside the script is read now, as saving the plan would read it: a malformed one is
  // refused here naming its line, not left for the save (docs/adr/0027-load-profiles.md "Importers").
  // A file not sent is not a problem yet: the warning below asks for it.
  const unreadable = testDataProblems({ data_files: dataFiles, data_sources: dataSources }).filter(
    (p) => p.path[0] === 'data_files' || p.path[2] !== 'path',
  );
  if (unreadable.length > 0) {
    throw new ImportError(
      file,
      `the test data it reads is refused: ${unreadable.map((p) => p.message).join('; ')}`,
    );
  }
  if (missing.length > 0) {
    warnings.push({
      location: 'data-sources',
      message: `Attach ${missing.join(', ')} to the plan's test data before saving: the script reads rows from ${missing.length === 1 ? 'it' : 'them'}, and the upload did not include ${missing.length === 1 ? 'it' : 'them'}`,
    });
  }
  const columns = new Set([
    ...read.data_sources.flatMap((d) => d.variable_names ?? []),
    ...dataSources.flatMap((d) => {
      const file = dataFiles[d.path];
      return file === undefined ? [] : (readDataSource(d, file).table?.names ?? []);
    }),
  ]);
  const hosts = [...new Set(steps.flatMap((s) => /^(https?:\/\/[^/?#]+)/i.exec(s.url)?.[1] ?? []))];
  return {
    steps,
    sources,
    warnings,
    info: {
      format: 'taurus',
      kind: 'Taurus configuration',
      title: read.test_name,
      servers: hosts,
      requests: read.apis.length,
      methods: countMethods(read.apis.map((a) => a.method)),
    },
    // A data source's columns get their values from its rows.
    needsValue: neededValues(steps, sources).filter((v) => !columns.has(v.name)),
    settings: {
      concurrent_users: load.concurrent_users,
      duration: load.duration,
      ...(load.load_profile === undefined ? {} : { load_profile: load.load_profile }),
      ...(dataSources.length === 0 ? {} : { data_sources: dataSources }),
      ...(Object.keys(dataFiles).length === 0 ? {} : { data_files: dataFiles }),
      missing_files: missing,
    },
  };
}
