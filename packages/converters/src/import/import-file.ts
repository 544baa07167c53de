import { csvToPlan, parseCsv } from './csv-to-plan';
import { curlToPlan } from './curl-to-plan';
import { decodeText } from './decode-text';
import { harDocumentToPlan, isHar, isHarRequest } from './har-to-plan';
import { IMPORT_FORMATS, type ImportFormat, ImportError, type ImportResult, isRecord } from './import-model';
import { openApiDocumentToPlan, topKeys } from './openapi-to-plan';
import {
  isPostmanCollection,
  postmanDocumentToPlan,
  postmanNonCollection,
  type PostmanImportOptions,
} from './postman-to-plan';
import { type ImportSource, parseStructuredText, sourceName, sourceText } from './read-document';
import { recordingFormatOf } from './recordings/read-recording';
import { RECORDING_FILE, RECORDING_NAMES } from './recordings/recording-model';
import { xlsxToPlan } from './xlsx-to-plan';
import { taurusToPlan } from './taurus/taurus-to-plan';

/**
 * One entry point for every upload: detects the format when it is not given (by content first, the file
 * name's extension only where content cannot tell), refuses with a clear message a file that is some other
 * kind of document (a Postman environment, a Taurus configuration, a fragment of a multi-file spec), and
 * runs the matching importer.
 */

export interface ImportFileInput extends ImportSource {
  name: string;
  /** The format the user chose; detected when absent. "openapi" and "xlsx" are read as swagger and excel. */
  format?: string | undefined;
  /** OpenAPI / Swagger: replaces the servers' URLs. */
  baseUrl?: string | undefined;
  /** OpenAPI / Swagger: the other files of a multi-file spec, by path relative to this file. */
  files?: Readonly<Record<string, ImportSource>> | undefined;
  /** Postman: an environment (or globals) whose values fill the collection's {{variables}}. */
  environment?: PostmanImportOptions['environment'];
  /** Postman: the plan runs the collection's scripts (a functional plan); see PostmanImportOptions. */
  postmanScriptsRun?: boolean | undefined;
  /** OpenAPI / Swagger: also write each operation's success response schema (OpenApiImportOptions). */
  responseSchemas?: boolean | undefined;
}

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  swagger: 'an OpenAPI / Swagger document',
  postman: 'a Postman collection',
  har: 'a HAR recording',
  curl: 'cURL commands',
  csv: 'a CSV file',
  excel: 'an Excel workbook',
  taurus: 'a Taurus configuration',
};

export function normalizeFormat(format: string | undefined): ImportFormat | undefined {
  if (format === undefined || format.trim() === '') return undefined;
  const lower = format.trim().toLowerCase();
  if (lower === 'openapi' || lower === 'swagger/openapi') return 'swagger';
  if (lower === 'xlsx' || lower === 'xls') return 'excel';
  return (IMPORT_FORMATS as readonly string[]).includes(lower) ? (lower as ImportFormat) : undefined;
}

export function importFile(input: ImportFileInput): ImportResult {
  const file = sourceName(input);
  const requested = normalizeFormat(input.format);
  if (input.format !== undefined && input.format !== '' && requested === undefined) {
    throw new ImportError(
      file,
      `"${input.format}" is not an import format; use one of ${IMPORT_FORMATS.join(', ')}`,
    );
  }
  const extension = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase() ?? '';
  const zip = input.bytes !== undefined && input.bytes[0] === 0x50 && input.bytes[1] === 0x4b;
  const ole = input.bytes !== undefined && input.bytes[0] === 0xd0 && input.bytes[1] === 0xcf;

  if (requested === 'excel' || zip || ole || extension === 'xlsx' || extension === 'xls') {
    if (requested !== undefined && requested !== 'excel')
      throw mismatch(file, 'an Excel workbook', requested);
    return xlsxToPlan(input);
  }
  const text = input.text ?? (input.bytes === undefined ? undefined : decodeText(input.bytes).text);
  const source: ImportSource = { name: file, text };
  const body = sourceText(source);

  if (requested === 'csv' || (requested === undefined && (extension === 'csv' || extension === 'tsv'))) {
    return csvToPlan(source);
  }
  if (
    requested === 'curl' ||
    (requested === undefined && /^\s*(?:#[^\n]*\n\s*)*curl(\.exe)?\s/i.test(body))
  ) {
    return curlToPlan(source);
  }
  if (/^\s*</.test(body)) {
    const what = /<jmeterTestPlan\b/.test(body) ? 'a JMeter test plan (.jmx)' : 'an XML document';
    throw new ImportError(
      file,
      `this is ${what}, which is not an import format; upload an OpenAPI / Swagger document, a Postman collection, a HAR file, cURL commands, CSV or Excel`,
    );
  }

  let doc: unknown;
  try {
    doc = parseStructuredText(body, file);
  } catch (error) {
    // Text that is neither JSON nor YAML may still be a CSV file named without its extension.
    if (requested === undefined && error instanceof ImportError && looksLikeCsv(body))
      return csvToPlan(source);
    throw error;
  }
  if (typeof doc !== 'object' || doc === null) {
    if (requested === undefined && looksLikeCsv(body)) return csvToPlan(source);
    // JSON's lone values (42, null, true) parse as well as YAML's plain text does; neither is a document.
    const holds =
      typeof doc === 'string'
        ? 'plain text, not a JSON or YAML document'
        : `a lone ${doc === null ? 'null' : typeof doc} (${String(doc).slice(0, 40)}), not a JSON or YAML document with fields`;
    throw new ImportError(
      file,
      `this is not ${requested ? FORMAT_NAMES[requested] : 'an API description'}: it holds ${holds}`,
    );
  }

  const kind = documentKind(doc);
  if (kind.format === 'taurus') {
    if (requested !== undefined && requested !== 'taurus') throw mismatch(file, kind.description, requested);
    return taurusToPlan(body, file, textFiles(input.files));
  }
  if (kind.format === undefined) {
    if (requested === 'postman' && recordingFormatOf(doc) === undefined)
      return postmanDocumentToPlan(doc, file, {
        environment: input.environment,
        scriptsRun: input.postmanScriptsRun,
      });
    throw new ImportError(file, `this is ${kind.description}`);
  }
  if (requested !== undefined && requested !== kind.format) throw mismatch(file, kind.description, requested);
  switch (kind.format) {
    case 'swagger':
      return openApiDocumentToPlan(doc, file, {
        baseUrl: input.baseUrl,
        files: input.files,
        responseSchemas: input.responseSchemas,
      });
    case 'postman':
      return postmanDocumentToPlan(doc, file, {
        environment: input.environment,
        scriptsRun: input.postmanScriptsRun,
      });
    case 'har':
      return harDocumentToPlan(doc, file);
    default:
      throw new ImportError(file, `this is ${kind.description}`);
  }
}

/**
 * The upload's other files as text by name — a Taurus script's data sources and body files — each under
 * its path and its base name, as a script names them either way.
 */
function textFiles(files: ImportFileInput['files']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, file] of Object.entries(files ?? {})) {
    const text = file.text ?? (file.bytes === undefined ? undefined : decodeText(file.bytes).text);
    if (text === undefined) continue;
    out[name] = text;
    const base = name.split(/[\\/]/).pop() ?? name;
    if (!Object.hasOwn(out, base)) out[base] = text;
  }
  return out;
}

function asText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function mismatch(file: string, actual: string, requested: ImportFormat): ImportError {
  return new ImportError(
    file,
    `this is ${actual}, not ${FORMAT_NAMES[requested]}; choose the matching file type, or upload ${FORMAT_NAMES[requested]}`,
  );
}

function looksLikeCsv(text: string): boolean {
  const [header] = parseCsv(text.slice(0, 4096));
  return (
    header !== undefined && header.length > 1 && header.some((c) => /^\s*(url|endpoint|uri)\s*$/i.test(c))
  );
}

/**
 * What a parsed JSON / YAML document is. `format` is set for the importable kinds; `description` says in
 * words what it is (used in messages), with a hint for the kinds that are not imported.
 */
export function documentKind(doc: unknown): { format: ImportFormat | undefined; description: string } {
  if (isRecord(doc)) {
    if (doc.openapi !== undefined)
      return { format: 'swagger', description: `an OpenAPI ${asText(doc.openapi)} document` };
    if (doc.swagger !== undefined)
      return { format: 'swagger', description: `a Swagger ${asText(doc.swagger)} document` };
    if (doc.swaggerVersion !== undefined) return { format: 'swagger', description: 'a Swagger 1.x document' };
    if (isPostmanCollection(doc)) return { format: 'postman', description: 'a Postman collection' };
    if (isHar(doc) || isHarRequest(doc)) return { format: 'har', description: 'a HAR recording' };
  }
  const postman = postmanNonCollection(doc);
  if (postman) return { format: undefined, description: postman };
  const recording = recordingFormatOf(doc);
  if (recording !== undefined) {
    return {
      format: undefined,
      description: `a ${RECORDING_NAMES[recording]} ${RECORDING_FILE[recording]}: a browser test, which is imported as a UI test (docs/adr/0030-recorded-ui-tests.md)`,
    };
  }
  if (!isRecord(doc))
    return { format: undefined, description: 'not an API description: it is a list, not a document' };
  if (doc.execution !== undefined || doc.scenarios !== undefined)
    return { format: 'taurus', description: 'a Taurus configuration' };
  if (doc.modules !== undefined || doc.reporting !== undefined || Array.isArray(doc.services)) {
    return {
      format: undefined,
      description:
        'a Taurus configuration of settings only (modules, reporting or services): it has no execution and no scenarios with requests to import',
    };
  }
  const fragment = fragmentKind(doc);
  if (fragment) {
    return {
      format: undefined,
      description: `part of a multi-file spec (${fragment}; its top-level keys are ${topKeys(doc)}), not a whole document: upload the root file, the one with "openapi:" or "swagger:" at the top, together with the files it refers to`,
    };
  }
  return {
    format: undefined,
    description: `not an API description: it is not an OpenAPI / Swagger document, a Postman collection or a HAR file (its top-level keys are ${topKeys(doc)})`,
  };
}

const SCHEMA_KEYS = new Set([
  'type',
  'properties',
  'required',
  'allOf',
  'oneOf',
  'anyOf',
  'items',
  'description',
  'enum',
  'format',
  'additionalProperties',
  'title',
  'example',
  '$ref',
  'nullable',
  'discriminator',
  'xml',
  'default',
]);
const PATH_ITEM_KEYS = new Set([
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  'parameters',
  'summary',
  'description',
  'servers',
  '$ref',
]);
const INFO_KEYS = new Set([
  'title',
  'version',
  'description',
  'contact',
  'license',
  'termsOfService',
  'summary',
]);

function fragmentKind(doc: Record<string, unknown>): string | undefined {
  const keys = Object.keys(doc);
  if (keys.length === 0) return undefined;
  const every = (set: ReadonlySet<string>) => keys.every((k) => set.has(k) || k.startsWith('x-'));
  if (
    every(SCHEMA_KEYS) &&
    (doc.type !== undefined || doc.properties !== undefined || doc.allOf !== undefined)
  ) {
    return 'a schema';
  }
  if (keys.every((k) => k.startsWith('/'))) return 'a paths object';
  if (every(PATH_ITEM_KEYS) && keys.some((k) => k !== 'parameters' && PATH_ITEM_KEYS.has(k) && k !== '$ref'))
    return 'a path item';
  if (every(INFO_KEYS) && (doc.title !== undefined || doc.version !== undefined)) return 'an info object';
  const values = Object.values(doc);
  if (
    values.length > 0 &&
    values.every((v) => isRecord(v) && typeof v.in === 'string' && typeof v.name === 'string')
  ) {
    return 'a set of parameters';
  }
  if (values.every(isRecord) && JSON.stringify(doc).includes('"$ref"')) return 'a set of definitions';
  return undefined;
}
